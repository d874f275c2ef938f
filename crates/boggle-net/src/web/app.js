// boggle serve --web: the page's script. It speaks docs/protocol.md over
// one WebSocket to /ws on the page's own origin, one JSON message per text
// message. Everything another player or the server sends is shown as text
// (textContent), never parsed as HTML. After a drop without a `bye` or a
// fatal error it rejoins with the seat's token, as `boggle join` does:
// 250 ms first, doubling to 2 s, for 20 s; the words left unanswered are
// sent again after the new welcome.
"use strict";

(function () {
  const VERSION = 1;
  const FATAL_OK = new Set(["rate_limited", "not_in_round", "bad_word"]);
  const REJOIN_FOR_MS = 20000;
  const PING_EVERY_MS = 60000;

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = String(text);
    return node;
  };

  const state = {
    ws: null,
    name: "",
    room: "main",
    password: "",
    token: null,
    welcomed: false,
    ending: false, // a bye or a fatal error: no rejoin
    rejoinUntil: 0,
    rejoinDelay: 250,
    moves: "eight_neighbours",
    rows: 0,
    cols: 0,
    board: [],
    inRound: false,
    deadline: 0,
    pending: [], // words sent and not yet answered
    lobby: null,
    ready: false,
    last: false,
    path: [],
    tracing: false,
  };

  function setStatus(text, isError) {
    const s = $("status");
    s.textContent = text || "";
    s.classList.toggle("error", !!isError);
  }

  function show(section, on) {
    $(section).hidden = !on;
  }

  // --- connection ---------------------------------------------------------

  function socketUrl() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + location.host + "/ws";
  }

  function send(msg) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) {
      state.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  function connect() {
    let ws;
    try {
      ws = new WebSocket(socketUrl());
    } catch (e) {
      setStatus("cannot connect: " + e.message, true);
      return;
    }
    state.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", version: VERSION, name: state.name, room: state.room };
      if (state.password) hello.password = state.password;
      if (state.token) hello.token = state.token;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== state.ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (msg && typeof msg.type === "string") handle(msg);
    });
    ws.addEventListener("close", () => {
      if (ws !== state.ws) return;
      state.ws = null;
      dropped();
    });
  }

  function dropped() {
    if (state.ending) {
      backToJoin();
      return;
    }
    if (!state.welcomed && state.rejoinUntil === 0) {
      setStatus("could not reach the server", true);
      backToJoin();
      return;
    }
    const now = Date.now();
    if (state.rejoinUntil === 0) {
      state.rejoinUntil = now + REJOIN_FOR_MS;
      state.rejoinDelay = 250;
    }
    if (now > state.rejoinUntil) {
      setStatus("the connection was lost and could not be restored", true);
      backToJoin();
      return;
    }
    setStatus("connection lost: rejoining…", true);
    setTimeout(connect, state.rejoinDelay);
    state.rejoinDelay = Math.min(state.rejoinDelay * 2, 2000);
  }

  function backToJoin() {
    state.welcomed = false;
    state.token = null;
    state.inRound = false;
    state.rejoinUntil = 0;
    for (const id of ["lobby", "round", "results"]) show(id, false);
    show("join", true);
    $("clock").hidden = true;
    $("who").hidden = true;
    $("join-button").disabled = false;
  }

  setInterval(() => {
    if (state.welcomed) send({ type: "ping" });
  }, PING_EVERY_MS);

  // --- messages -----------------------------------------------------------

  function handle(msg) {
    switch (msg.type) {
      case "welcome": return onWelcome(msg);
      case "lobby": return onLobby(msg);
      case "round_start": return onRoundStart(msg);
      case "verdict": return onVerdict(msg);
      case "results": return onResults(msg);
      case "error": return onError(msg);
      case "bye":
        state.ending = true;
        setStatus("the server said goodbye: " + String(msg.reason || ""), true);
        return;
      default: return;
    }
  }

  function onWelcome(msg) {
    const rejoined = state.rejoinUntil !== 0;
    state.welcomed = true;
    state.rejoinUntil = 0;
    state.token = String(msg.token || "");
    state.name = String(msg.name || state.name);
    state.room = String(msg.room || state.room);
    state.moves = msg.moves === "no_up" ? "no_up" : "eight_neighbours";
    state.last = false;
    show("join", false);
    show("lobby", true);
    const who = $("who");
    who.hidden = false;
    who.textContent = state.name + " in room " + state.room + " · " + String(msg.rules || "") +
      (msg.duplicates === "cancel" ? " · shared words cancel" : "");
    if (rejoined) {
      // Counted where a reader (or a test) can see that the page came back.
      document.body.dataset.rejoins = String((Number(document.body.dataset.rejoins) || 0) + 1);
    }
    setStatus(rejoined ? "rejoined" : "joined: press Ready when you are");
    // The join button is gone: the keyboard's focus goes on to Ready.
    if (!rejoined) $("ready").focus();
    const resend = state.pending.slice();
    state.pending = [];
    for (const word of resend) sendWord(word);
    try {
      history.replaceState(null, "", "/?room=" + encodeURIComponent(state.room));
    } catch (e) { /* a page opened from a file: nothing to update */ }
  }

  function onLobby(msg) {
    state.lobby = msg;
    const list = $("players");
    list.replaceChildren();
    const players = Array.isArray(msg.players) ? msg.players : [];
    let readyCount = 0;
    for (const p of players) {
      const li = el("li");
      li.dataset.name = String(p.name);
      const name = el("span", "name" + (p.connected ? "" : " away"), p.name);
      if (!p.connected) name.append(el("span", "", " (away)"));
      li.append(name);
      li.append(el("span", "state" + (p.ready ? " ready" : ""), p.ready ? "ready" : "not ready"));
      li.append(el("span", "total", pointsShort(Number(p.total) || 0)));
      list.append(li);
      if (p.ready) readyCount += 1;
      if (p.name === state.name) state.ready = !!p.ready;
    }
    const min = Number(msg.min_players) || 1;
    $("lobby-note").textContent = "(" + readyCount + " of " + players.length + " ready)";
    $("ready-note").textContent = players.length < min
      ? "waiting for at least " + min + " players"
      : "a round starts when everyone connected is ready";
    const ready = $("ready");
    ready.disabled = state.ready || state.inRound || state.last;
    ready.textContent = state.ready ? "Ready ✓" : "Ready";
    show("lobby", !state.inRound);
  }

  function onRoundStart(msg) {
    state.inRound = true;
    state.ready = false;
    state.rows = Number(msg.rows) || 0;
    state.cols = Number(msg.cols) || 0;
    state.board = Array.isArray(msg.board) ? msg.board.map((f) => String(f)) : [];
    state.deadline = Date.now() + (Number(msg.remaining_ms) || 0);
    drawBoard();
    const list = $("verdicts");
    list.replaceChildren();
    $("last").textContent = "";
    const found = Array.isArray(msg.found) ? msg.found : [];
    for (const f of found) addVerdict(f.word, true, f.points, pointsText(f.points));
    $("score").textContent = String(Number(msg.score) || 0);
    show("lobby", false);
    show("results", false);
    show("round", true);
    $("done").disabled = false;
    $("clock").hidden = false;
    tick();
    setStatus(found.length > 0
      ? "rejoined: your words this round are kept"
      : "round " + msg.round + ": find words!");
    $("word").focus();
  }

  function pointsShort(points) {
    return points === 1 ? "1 pt" : String(points) + " pts";
  }

  function pointsText(points) {
    return points === 1 ? "1 point" : String(points) + " points";
  }

  function onVerdict(msg) {
    const word = String(msg.word || "");
    const i = state.pending.indexOf(word.toUpperCase());
    if (i >= 0) state.pending.splice(i, 1);
    addVerdict(word, !!msg.accepted, Number(msg.points) || 0, String(msg.reason || ""));
    $("score").textContent = String(Number(msg.score) || 0);
  }

  function addVerdict(word, accepted, points, reason) {
    const li = el("li", accepted ? "accepted" : "refused");
    li.dataset.word = String(word).toUpperCase();
    li.dataset.points = String(accepted ? points : 0);
    li.dataset.accepted = accepted ? "true" : "false";
    li.append(el("span", "word", String(word).toUpperCase()));
    li.append(el("span", "reason", reason));
    const list = $("verdicts");
    list.prepend(li);
    // The latest verdict also shows under the board, in sight on a phone.
    const last = $("last");
    last.textContent = String(word).toUpperCase() + ": " + reason;
    last.className = accepted ? "accepted" : "refused";
  }

  function onResults(msg) {
    state.inRound = false;
    state.ready = false;
    state.last = !!msg.last;
    state.pending = [];
    show("round", false);
    $("clock").hidden = true;
    $("results-title").textContent = "Results of round " + msg.round + (msg.last ? " (the last)" : "");
    const box = $("results-players");
    box.replaceChildren();
    for (const p of Array.isArray(msg.players) ? msg.players : []) {
      const card = el("div", "player-result");
      card.dataset.name = String(p.name);
      const head = el("div", "head");
      head.append(el("span", "name", p.name));
      const score = el("span", "score", String(Number(p.score) || 0));
      const round = el("span", "round", "round: ");
      round.append(score);
      head.append(round);
      head.append(el("span", "total", "total: " + String(Number(p.total) || 0)));
      card.append(head);
      const words = el("ul", "words");
      for (const w of Array.isArray(p.words) ? p.words : []) {
        const li = el("li", w.cancelled ? "cancelled" : "", String(w.word) +
          (w.cancelled ? " (cancelled)" : " +" + String(Number(w.points) || 0)));
        li.dataset.word = String(w.word);
        li.dataset.points = String(Number(w.points) || 0);
        li.dataset.cancelled = w.cancelled ? "true" : "false";
        words.append(li);
      }
      const total = Number(p.words_total) || 0;
      const shown = Array.isArray(p.words) ? p.words.length : 0;
      if (total > shown) words.append(el("li", "note", "and " + (total - shown) + " more"));
      if (total === 0) words.append(el("li", "note", "no words"));
      card.append(words);
      box.append(card);
    }
    const shared = $("results-shared");
    shared.replaceChildren();
    const sharedList = Array.isArray(msg.shared) ? msg.shared : [];
    for (const s of sharedList) {
      const names = Array.isArray(s.players) ? s.players.map(String) : [];
      const count = Number(s.count) || names.length;
      const more = count > names.length ? " and " + (count - names.length) + " more" : "";
      const li = el("li", "", String(s.word) + ": " + names.join(", ") + more);
      li.dataset.word = String(s.word);
      shared.append(li);
    }
    const sharedTotal = Number(msg.shared_total) || sharedList.length;
    if (sharedTotal > sharedList.length) shared.append(el("li", "note", "and " + (sharedTotal - sharedList.length) + " more"));
    $("results-shared-box").hidden = sharedList.length === 0;
    const missed = $("results-missed");
    missed.replaceChildren();
    const missedList = Array.isArray(msg.missed) ? msg.missed : [];
    for (const m of missedList) missed.append(el("li", "", String(m.word) + " " + String(Number(m.points) || 0)));
    const missedTotal = Number(msg.missed_total) || missedList.length;
    if (missedTotal > missedList.length) missed.append(el("li", "note", "(" + missedTotal + " in all)"));
    if (missedList.length === 0) missed.append(el("li", "note", "none"));
    show("results", true);
    show("lobby", true);
    const ready = $("ready");
    ready.disabled = state.last;
    ready.textContent = "Ready";
    $("ready-note").textContent = state.last ? "that was the room's last round" : "press Ready for the next round";
    setStatus(state.last ? "game over" : "round over");
    // Ready takes the focus for the keyboard, without scrolling the results away.
    if (!state.last) ready.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }

  function onError(msg) {
    const code = String(msg.code || "");
    const text = String(msg.message || code);
    if (code === "bad_token" && state.token) {
      // The seat was given up: join again as a new player.
      state.token = null;
      setStatus("your seat was given up: joining again", true);
      return;
    }
    if (FATAL_OK.has(code)) {
      if (msg.word) {
        const w = String(msg.word).toUpperCase();
        const i = state.pending.indexOf(w);
        if (i >= 0) state.pending.splice(i, 1);
        addVerdict(w, false, 0, text);
      } else if (code === "not_in_round" || code === "bad_word") {
        state.pending = [];
        setStatus(text, true);
      } else {
        setStatus(text, true);
      }
      return;
    }
    state.ending = true;
    setStatus(text, true);
    if (!state.welcomed) {
      $("join-button").disabled = false;
    }
  }

  // --- the clock ------------------------------------------------------------

  function tick() {
    if (!state.inRound) return;
    const left = Math.max(0, state.deadline - Date.now());
    const s = Math.ceil(left / 1000);
    const clock = $("clock");
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.classList.toggle("low", s <= 10);
    if (left === 0) setStatus("time is up: waiting for the results");
  }
  setInterval(tick, 250);

  // --- the board and tracing ---------------------------------------------------

  function drawBoard() {
    const board = $("board");
    board.replaceChildren();
    board.style.setProperty("--cols", String(state.cols || 4));
    board.setAttribute("aria-label", "the board, " + state.rows + " by " + state.cols);
    state.board.forEach((face, i) => {
      const cell = el("div", "cell" + (face === "" ? " blank" : ""), face === "QU" ? "Qu" : face);
      cell.dataset.index = String(i);
      cell.dataset.face = face;
      cell.setAttribute("role", "gridcell");
      board.append(cell);
    });
    clearPath();
  }

  function adjacent(a, b) {
    const ar = Math.floor(a / state.cols), ac = a % state.cols;
    const br = Math.floor(b / state.cols), bc = b % state.cols;
    const dr = br - ar, dc = bc - ac;
    if (dr === 0 && dc === 0) return false;
    if (Math.abs(dr) > 1 || Math.abs(dc) > 1) return false;
    if (state.moves === "no_up") return dr === 0 || dr === 1;
    return true;
  }

  function pathWord(path) {
    return path.map((i) => state.board[i]).join("");
  }

  function lightPath(path, bad) {
    const cells = $("board").children;
    for (const cell of cells) cell.classList.remove("lit", "head");
    path.forEach((i, k) => {
      const cell = cells[i];
      if (cell) cell.classList.add(k === path.length - 1 ? "head" : "lit");
    });
    const trace = $("trace");
    trace.textContent = pathWord(path);
    trace.classList.toggle("bad", !!bad);
  }

  function clearPath() {
    state.path = [];
    state.tracing = false;
    lightPath([], false);
  }

  // The cell under a point, taken only near its middle so a diagonal
  // drag does not catch the corner of a neighbour.
  function cellAt(x, y) {
    const node = document.elementFromPoint(x, y);
    const cell = node && node.closest ? node.closest(".cell") : null;
    if (!cell || !$("board").contains(cell)) return -1;
    const r = cell.getBoundingClientRect();
    const dx = (x - (r.left + r.width / 2)) / r.width;
    const dy = (y - (r.top + r.height / 2)) / r.height;
    if (dx * dx + dy * dy > 0.16) return -1;
    return Number(cell.dataset.index);
  }

  function extend(i) {
    if (i < 0 || state.board[i] === "") return;
    const path = state.path;
    const n = path.length;
    if (n > 0 && path[n - 1] === i) return;
    if (n > 1 && path[n - 2] === i) {
      path.pop(); // back along the path
    } else if (n === 0 || (adjacent(path[n - 1], i) && !path.includes(i))) {
      path.push(i);
    } else {
      return;
    }
    lightPath(path, false);
  }

  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    if (!state.inRound) return;
    const cell = e.target.closest ? e.target.closest(".cell") : null;
    if (!cell) return;
    e.preventDefault();
    state.tracing = true;
    state.path = [];
    try { board.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events */ }
    extend(Number(cell.dataset.index));
  });
  board.addEventListener("pointermove", (e) => {
    if (!state.tracing) return;
    e.preventDefault();
    extend(cellAt(e.clientX, e.clientY));
  });
  const finishTrace = (e) => {
    if (!state.tracing) return;
    e.preventDefault();
    const word = pathWord(state.path);
    clearPath();
    if (word.length > 0) sendWord(word);
  };
  board.addEventListener("pointerup", finishTrace);
  board.addEventListener("pointercancel", () => clearPath());

  // A typed word lights its path as it grows (the first path found, under the room's move rule).
  function findPath(word) {
    const letters = word.toUpperCase();
    const cells = state.board;
    const walk = (i, at, used) => {
      const face = cells[i];
      if (face === "" || !letters.startsWith(face, at)) return null;
      used.push(i);
      const next = at + face.length;
      if (next === letters.length) return used.slice();
      for (let j = 0; j < cells.length; j++) {
        if (!used.includes(j) && adjacent(i, j)) {
          const found = walk(j, next, used);
          if (found) return found;
        }
      }
      used.pop();
      return null;
    };
    if (letters.length === 0 || letters.length > 64) return [];
    for (let i = 0; i < cells.length; i++) {
      const found = walk(i, 0, []);
      if (found) return found;
    }
    return null;
  }

  $("word").addEventListener("input", () => {
    if (!state.inRound || state.tracing) return;
    const typed = $("word").value.replace(/[^A-Za-z]/g, "");
    const path = findPath(typed);
    lightPath(path || [], path === null);
    if (path === null) $("trace").textContent = typed.toUpperCase();
  });

  // --- sending ------------------------------------------------------------------

  function sendWord(word) {
    const w = String(word).toUpperCase();
    if (!/^[A-Z]{1,64}$/.test(w)) {
      setStatus("a word is 1 to 64 letters", true);
      return;
    }
    state.pending.push(w);
    if (!send({ type: "word", word: w.toLowerCase() })) setStatus("not connected: the word is sent when back", true);
  }

  $("word-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("word");
    const word = input.value.trim();
    input.value = "";
    lightPath([], false);
    if (word && state.inRound) sendWord(word);
    input.focus();
  });

  $("done").addEventListener("click", () => {
    if (send({ type: "done" })) {
      $("done").disabled = true;
      setStatus("done: waiting for the others");
    }
  });

  $("ready").addEventListener("click", () => {
    if (send({ type: "ready" })) {
      state.ready = true;
      $("ready").disabled = true;
      $("ready").textContent = "Ready ✓";
    }
  });

  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    const room = $("room").value.trim() || "main";
    if (name.length === 0) {
      setStatus("type a name first", true);
      $("name").focus();
      return;
    }
    state.name = name;
    state.room = room;
    state.password = $("password").value;
    state.token = null;
    state.ending = false;
    state.welcomed = false;
    state.rejoinUntil = 0;
    state.pending = [];
    $("join-button").disabled = true;
    setStatus("joining…");
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    connect();
  });

  // --- start ------------------------------------------------------------------------

  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  if (room) $("room").value = room.slice(0, 20);
  $("password-row").hidden = document.body.dataset.password !== "yes";
  $("name").focus();
})();
