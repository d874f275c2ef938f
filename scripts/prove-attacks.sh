#!/usr/bin/env bash
# Tries attacks on the prover's files (repeated
# lines, two runs of one shard, forged lines, crafted settings, FIFOs, huge
# files) on a 3x3 proof in a temporary directory, printing each command, its
# exit status and its first lines. Every attack must end in a refusal that
# names the file (and line), and the clean merge must prove 42 boards with
# ENABLE2K.
#
#   scripts/prove-attacks.sh BOGGLE_BINARY WORD_FILE
set -uo pipefail
B=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$2" "$work/e.txt"
cd "$work" || exit 1
P=(prove --rules classic --dict e.txt --size 3x3 --above 500 --threads 1)
fresh() { rm -rf out; cp -r clean out; }
run() { echo "\$ $*"; "$@" > run.out 2> run.err; echo "exit $?"; grep -E "proved|accounted|resuming|incomplete|best" run.out | head -3; head -c 400 run.err | cat -v; echo; }
for i in 0 1 2 3; do "$B" "${P[@]}" --shard "$i/4" --out clean >/dev/null 2>&1; done
echo "== 1 repeated lines, then --resume and merge"; fresh
cat clean/shard-0-of-4.ndjson >> out/shard-0-of-4.ndjson; rm out/shard-0-of-4.done
run "$B" "${P[@]}" --shard 0/4 --out out --resume; run "$B" prove merge out
echo "== 1 two runs of one shard at once"; fresh; rm out/shard-1-of-4.done
flock out/shard-1-of-4.ndjson sleep 3 & sleep 0.5; run "$B" "${P[@]}" --shard 1/4 --out out --resume; wait
echo "== 1 params without records"; fresh; rm out/shard-2-of-4.ndjson out/shard-2-of-4.done
run "$B" "${P[@]}" --shard 2/4 --out out --resume; run "$B" prove merge out
forge() { fresh; python3 -c "$1"; run "$B" prove merge out; }
echo "== 2 a score of 102 made 999"
forge "
import re;p='out/shard-0-of-4.ndjson';t=open(p).read();l=[x for x in t.splitlines() if '\"score\":' in x][0]
open(p,'w').write(t.replace(l,re.sub(r'\"score\":\d+','\"score\":999',l,count=1)))"
echo "== 2 the best board deleted"
forge "
import json;p=None
for i in range(4):
  q='out/shard-%d-of-4.ndjson'%i;t=open(q).read()
  if 'DESLATPER' in t: p=q;break
L=[json.loads(x) for x in t.splitlines()]
for r in L: r['boards']=[b for b in r['boards'] if b['board']!='DESLATPER']
open(p,'w').write(''.join(json.dumps(r,separators=(',',':'))+'\n' for r in L))"
echo "== 2 a class set to bound 10, boards []"
forge "
import json;p='out/shard-0-of-4.ndjson';L=[json.loads(x) for x in open(p)]
r=[r for r in L if r['boards']][0];r['bound']=10;r['boards']=[]
open(p,'w').write(''.join(json.dumps(r,separators=(',',':'))+'\n' for r in L))"
for phantom in 'ZZZZZZZZZ' 'QQ' $'\e[2J\e[31mDESLATPER'; do
echo "== 2 a phantom board $(printf %q "$phantom")"
P2="$phantom" forge "
import json,os;p='out/shard-0-of-4.ndjson';L=[json.loads(x) for x in open(p)]
L[0]['boards'].append({'board':os.environ['P2'],'score':5000})
open(p,'w').write(''.join(json.dumps(r,separators=(',',':'))+'\n' for r in L))"
done
echo "== 3 crafted params"
for f in '"shards":0' '"shards":4294967295' '"rows":1152921504606846977'; do
  fresh; key=${f%%:*}; sed -i "s/$key:[0-9]*/$f/" out/shard-0-of-4.params.json; run "$B" prove merge out; done
echo "== 3 --shard 0/4294967295"; rm -rf many; run "$B" "${P[@]}" --shard 0/4294967295 --out many; ls -d many 2>/dev/null
echo "== 3 --buckets of 26 single letters on 3x3"
run /usr/bin/time -f '%e s %M KB' "$B" "${P[@]}" --buckets "a b c d e f g h i j k l m n o p q r s t u v w x y z"
echo "== 3 a FIFO as a shard file (merge, --resume)"; fresh; rm out/shard-3-of-4.ndjson; mkfifo out/shard-3-of-4.ndjson
run timeout 10 "$B" prove merge out; rm out/shard-3-of-4.done; run timeout 10 "$B" "${P[@]}" --shard 3/4 --out out --resume
echo "== 3 /dev/zero and a 6 GB sparse file as records"; fresh; rm out/shard-3-of-4.ndjson; ln -s /dev/zero out/shard-3-of-4.ndjson
run timeout 10 "$B" prove merge out; fresh; truncate -s 6G out/shard-3-of-4.ndjson; run timeout 10 "$B" prove merge out
echo "== 3 merge base base"; fresh; run "$B" prove merge out out
echo "== the clean merge"; fresh; run "$B" prove merge out
