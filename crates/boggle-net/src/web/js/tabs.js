// One tab a seat: a duplicated tab (its sessionStorage, so its token,
// copied) finds the seat played elsewhere and stays out. In a secure
// context the tab playing a seat holds its Web Lock; without one (plain
// http) tabs ask each other on a BroadcastChannel, and one playing it (or
// asking with a higher id) answers that it is held.

/** A reloaded page lets go of its seat's lock in far less. */
const LOCK_WAIT_MS = 1000;
/** How long a tab asking for a seat waits for an answer before taking it:
 * a holder answers in milliseconds, in the background too; 400 ms leaves
 * room for a loaded machine and is not felt. */
const ANSWER_WAIT_MS = 400;

/** Lets go of a seat held. @typedef {() => void} Release */

/** Holds the seat `token` (taking it over from another tab when
 * `takeOver`): its release, or null when another tab holds it. `lost`
 * runs when another tab takes it over later.
 * @param {string} token @param {boolean} takeOver @param {() => void} lost
 * @returns {Promise<Release | null>} */
export function holdInThisTab(token, takeOver, lost) {
  const name = "boggle.seat." + token;
  return navigator.locks ? byLock(name, takeOver, lost) : byAsking(name, takeOver, lost);
}

/** @param {string} name @param {boolean} takeOver @param {() => void} lost @returns {Promise<Release | null>} */
function byLock(name, takeOver, lost) {
  return new Promise((resolve) => {
    /** @type {LockOptions} */
    const options = takeOver ? { steal: true } : { signal: AbortSignal.timeout(LOCK_WAIT_MS) };
    navigator.locks
      .request(name, options, () => new Promise((release) => resolve(() => release(null))))
      // Held by another tab (resolved null), or taken over later.
      .catch(() => {
        resolve(null);
        lost();
      });
  });
}

/** What one tab says to the others about seat `name`: `ask` (is it
 * held?), `held` (yes, by me, or I asked first and win), `take` (it is mine now).
 * @typedef {{ say: "ask" | "held" | "take", name: string, id: number }} Said */

/** This tab's id, for ties. */
const me = Math.random();
/** The seat this tab asks for or holds ("": none), and what settles it. */
const mine = {
  name: "",
  holding: false,
  /** @type {() => void} */
  lost: () => {},
  /** Ends the asking: won or not. @type {(won: boolean) => void} */
  settle: () => {},
};
/** @type {BroadcastChannel | null} */
let channel = null;

/** @param {string} name @param {boolean} takeOver @param {() => void} lost @returns {Promise<Release | null>} */
function byAsking(name, takeOver, lost) {
  // A browser without either cannot tell its tabs apart: the server's
  // `replaced` alone stops the other tab.
  if (typeof BroadcastChannel !== "function") return Promise.resolve(() => {});
  channel ??= openChannel();
  mine.settle(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => mine.settle(true), takeOver ? 0 : ANSWER_WAIT_MS);
    Object.assign(mine, {
      name,
      holding: false,
      lost: () => {},
      /** @param {boolean} won */
      settle: (won) => {
        clearTimeout(timer);
        mine.settle = () => {};
        if (!won) {
          mine.name = "";
          return resolve(null);
        }
        Object.assign(mine, { holding: true, lost });
        resolve(() => {
          if (mine.name === name) Object.assign(mine, { name: "", holding: false });
        });
      },
    });
    tell(takeOver ? "take" : "ask", name);
  });
}

/** @param {Said["say"]} say @param {string} name */
function tell(say, name) {
  /** @type {Said} */
  const said = { say, name, id: me };
  channel?.postMessage(said);
}

function openChannel() {
  const heard = new BroadcastChannel("boggle.seats");
  heard.addEventListener("message", (event) => {
    const said = /** @type {Said} */ (event.data);
    if (!mine.name || said.name !== mine.name) return;
    if (said.say === "take") {
      if (!mine.holding) return mine.settle(false);
      const { lost } = mine;
      Object.assign(mine, { name: "", holding: false });
      return lost();
    }
    if (mine.holding) {
      if (said.say === "ask") tell("held", mine.name);
      return;
    }
    // Asking too: a tab holding it, or the higher id of two asking at once, wins.
    if (said.say === "held" || said.id > me) return mine.settle(false);
    tell("held", mine.name);
  });
  return heard;
}
