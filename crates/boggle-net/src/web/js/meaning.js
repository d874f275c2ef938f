// What a word means, shown under the results' board when a word is tapped:
// asked of the server one word at a time (GET /meaning?word=WORD, never the
// whole dictionary), each answer kept for the page's life.
/** @import { Meaning } from "./messages" */
import { $, el } from "./screens.js";

/** @type {Map<string, Promise<Meaning | null>>} */
const asked = new Map();
/** The word whose meaning is wanted now (a slow answer for another is dropped). */
let wanted = "";

/** @param {string} word @returns {Promise<Meaning | null>} */
function lookUp(word) {
  let answer = asked.get(word);
  if (!answer) {
    answer = fetch("/meaning?word=" + encodeURIComponent(word))
      .then((r) => (r.ok ? /** @type {Promise<Meaning>} */ (r.json()) : null))
      .catch(() => null);
    asked.set(word, answer);
  }
  return answer;
}

/** @param {...Node} nodes */
const say = (...nodes) => $("meaning").replaceChildren(...nodes);

/** Shows what `word` means (upper case). @param {string} word */
export async function showMeaning(word) {
  wanted = word;
  say(el("p", "note", "Looking up " + word + "…"));
  const meaning = await lookUp(word);
  if (wanted !== word) return;
  if (!meaning) {
    asked.delete(word);
    say(el("p", "note", "The meaning of " + word + " could not be fetched: tap it again."));
    return;
  }
  if (meaning.entries.length === 0) {
    say(el("p", "lemma", word + ": no entry in WordNet."));
    return;
  }
  say(...meaning.entries.flatMap((entry) => {
    const lemma = entry.lemma.toUpperCase();
    const senses = el("ul", "senses");
    senses.append(...entry.senses.map((sense) => {
      const li = el("li");
      li.append(el("span", "part", sense.part), " " + sense.definition);
      return li;
    }));
    return [el("p", "lemma", lemma === word ? word : word + ", a form of " + lemma), senses];
  }), el("p", "note source", "From WordNet 3.1"));
}

export function clearMeaning() {
  wanted = "";
  say();
}
