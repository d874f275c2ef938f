// boggle serve --web: the page's script. It speaks docs/protocol.md over
// one WebSocket to /ws on the page's own origin, one JSON message per text
// message. Everything another player or the server sends is shown as text
// (textContent), never parsed as HTML. The seat's token is kept in
// sessionStorage, so a reload or a drop rejoins the seat silently (a drop:
// 250 ms first, doubling to 2 s, for 20 s); the words left unanswered are
// sent again after the new welcome. Screens: home (solo, today's board,
// friends), join, lobby, round, results; the help card is a dialog.
"use strict";

(function () {
  const VERSION = 1;
  const FATAL_OK = new Set(["rate_limited", "not_in_round", "bad_word"]);
  const REJOIN_FOR_MS = 20000;
  const PING_EVERY_MS = 60000;
  const GRACE_MS = 1000; // after a round ends, keys and taps do nothing
  const PATH_STEPS = 20000; // a trace past this many steps answers "no path"
  const SEAT = "boggle.seat";

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = String(text);
    return node;
  };
  const store = (kind) => { try { return window[kind]; } catch (e) { return null; } };
  const load = (kind, key) => {
    try { return JSON.parse(store(kind).getItem(key)); } catch (e) { return null; }
  };
  const save = (kind, key, value) => {
    try { store(kind).setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  };
  const forget = (kind, key) => { try { store(kind).removeItem(key); } catch (e) { /* none */ } };

  const state = {
    ws: null, name: "", room: "main", password: "", token: null, solo: null,
    welcomed: false, ending: false, rejoinUntil: 0, rejoinDelay: 250,
    rules: "", moves: "eight_neighbours", duplicates: "cancel",
    rows: 0, cols: 0, board: [], inRound: false, deadline: 0, announced: 0,
    pending: [], lobby: null, ready: false, last: false,
    path: [], gesture: null, graceUntil: 0, daily: null, results: null,
  };

  function setStatus(text, isError) {
    const s = $("status");
    s.textContent = text || "";
    s.classList.toggle("error", !!isError);
  }

  const SCREENS = ["home", "join", "lobby", "round", "results"];
  function screen(...on) {
    for (const id of SCREENS) $(id).hidden = !on.includes(id);
    $("actions").hidden = !(on.includes("lobby") || on.includes("results"));
  }

  // --- connection ---------------------------------------------------------

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
      ws = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws");
    } catch (e) {
      setStatus("cannot connect: " + e.message, true);
      return;
    }
    state.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", version: VERSION, name: state.name, room: state.room };
      if (state.password) hello.password = state.password;
      if (state.token) hello.token = state.token;
      else if (state.solo) hello.solo = state.solo;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== state.ws) return;
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg && typeof msg.type === "string") handle(msg);
    });
    ws.addEventListener("close", () => {
      if (ws !== state.ws) return;
      state.ws = null;
      dropped();
    });
  }

  function start(name, room, solo) {
    state.name = name;
    state.room = room;
    state.solo = solo;
    state.token = null;
    state.ending = false;
    state.welcomed = false;
    state.rejoinUntil = 0;
    state.pending = [];
    setStatus("joining…");
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    connect();
  }

  function dropped() {
    if (state.ending || (!state.welcomed && state.rejoinUntil === 0)) {
      if (!state.ending) setStatus("could not reach the server", true);
      backHome();
      return;
    }
    const now = Date.now();
    if (state.rejoinUntil === 0) {
      state.rejoinUntil = now + REJOIN_FOR_MS;
      state.rejoinDelay = 250;
    }
    if (now > state.rejoinUntil) {
      setStatus("the connection was lost and could not be restored", true);
      backHome();
      return;
    }
    setStatus("connection lost: rejoining…", true);
    setTimeout(connect, state.rejoinDelay);
    state.rejoinDelay = Math.min(state.rejoinDelay * 2, 2000);
  }

  function backHome() {
    forget("sessionStorage", SEAT);
    Object.assign(state, { welcomed: false, token: null, solo: null, inRound: false, rejoinUntil: 0 });
    screen(state.room && new URLSearchParams(location.search).get("room") ? "join" : "home");
    $("clock").hidden = true;
    $("who").hidden = true;
    $("join-button").disabled = false;
  }

  setInterval(() => { if (state.welcomed) send({ type: "ping" }); }, PING_EVERY_MS);

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
    const rejoined = state.rejoinUntil !== 0 || state.resumed;
    const fresh = !state.token;
    state.resumed = false;
    state.welcomed = true;
    state.rejoinUntil = 0;
    state.token = String(msg.token || "");
    state.name = String(msg.name || state.name);
    state.room = String(msg.room || state.room);
    state.rules = String(msg.rules || "");
    state.moves = msg.moves === "no_up" ? "no_up" : "eight_neighbours";
    state.duplicates = msg.duplicates === "count" ? "count" : "cancel";
    state.last = false;
    // The server's password goes with the seat (this tab only), or a reload could not rejoin.
    save("sessionStorage", SEAT, { name: state.name, room: state.room, token: state.token, solo: state.solo, password: state.password });
    const who = $("who");
    who.hidden = false;
    who.textContent = state.name + (state.solo ? " · solo" : " in room " + state.room) + " · " + state.rules;
    helpRules();
    if (rejoined) {
      // Counted where a reader (or a test) can see that the page came back.
      document.body.dataset.rejoins = String((Number(document.body.dataset.rejoins) || 0) + 1);
    }
    const resend = state.pending.slice();
    state.pending = [];
    for (const word of resend) sendWord(word);
    if (state.solo) {
      // A reload resumes this game, not the link that started it.
      try { history.replaceState(null, "", "/"); } catch (e) { /* file */ }
      // Solo: no one to wait for, the round starts at once.
      if (fresh) send({ type: "ready" });
      return;
    }
    screen("lobby");
    $("room-link-box").hidden = false;
    $("room-link").value = location.origin + "/?room=" + encodeURIComponent(state.room);
    setStatus(rejoined ? "rejoined" : "joined: press Ready when you are");
    // The join button is gone: the keyboard's focus goes on to Ready.
    if (!rejoined) $("ready").focus();
    try { history.replaceState(null, "", "/?room=" + encodeURIComponent(state.room)); } catch (e) { /* file */ }
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
    if (!state.results) {
      $("ready-note").textContent = players.length < min
        ? "waiting for at least " + min + " players"
        : "a round starts when everyone connected is ready";
    }
    readyButton();
  }

  function readyButton() {
    const ready = $("ready");
    ready.disabled = state.ready || state.inRound || state.last || Date.now() < state.graceUntil;
    ready.textContent = state.ready ? "Ready ✓" : state.solo ? "Play again" : "Ready";
  }

  function onRoundStart(msg) {
    // Counted where a test can see whether a round started.
    document.body.dataset.rounds = String((Number(document.body.dataset.rounds) || 0) + 1);
    state.inRound = true;
    state.ready = false;
    state.results = null;
    state.rows = Number(msg.rows) || 0;
    state.cols = Number(msg.cols) || 0;
    state.board = Array.isArray(msg.board) ? msg.board.map((f) => String(f)) : [];
    state.deadline = Date.now() + (Number(msg.remaining_ms) || 0);
    state.announced = 0;
    drawBoard($("board"), true);
    clearPath();
    $("verdicts").replaceChildren();
    $("last").textContent = "";
    const found = Array.isArray(msg.found) ? msg.found : [];
    for (const f of found) addVerdict(f.word, true, f.points, pointsText(f.points));
    $("score").textContent = String(Number(msg.score) || 0);
    screen("round");
    $("done").disabled = false;
    $("clock").hidden = false;
    tick();
    setStatus(found.length > 0 ? "rejoined: your words this round are kept" : "round " + msg.round + ": find words!");
    $("word").focus();
  }

  const pointsShort = (n) => (n === 1 ? "1 pt" : String(n) + " pts");
  const pointsText = (n) => (n === 1 ? "1 point" : String(n) + " points");

  function onVerdict(msg) {
    const word = String(msg.word || "");
    const i = state.pending.indexOf(word.toUpperCase());
    if (i >= 0) state.pending.splice(i, 1);
    addVerdict(word, !!msg.accepted, Number(msg.points) || 0, String(msg.reason || ""));
    $("score").textContent = String(Number(msg.score) || 0);
  }

  function addVerdict(word, accepted, points, reason) {
    const w = String(word).toUpperCase();
    const li = el("li", accepted ? "accepted" : "refused");
    li.dataset.word = w;
    li.dataset.points = String(accepted ? points : 0);
    li.dataset.accepted = accepted ? "true" : "false";
    li.append(el("span", "word", w), el("span", "reason", reason));
    $("verdicts").prepend(li);
    // The latest verdict also shows under the board, in sight on a phone.
    const last = $("last");
    last.textContent = w + ": " + reason;
    last.className = accepted ? "accepted" : "refused";
  }

  // --- results ------------------------------------------------------------

  function wordButton(text, word, cls) {
    const b = el("button", "word " + (cls || ""), text);
    b.type = "button";
    b.dataset.word = word;
    return b;
  }

  function onResults(msg) {
    state.inRound = false;
    state.ready = false;
    state.last = !!msg.last;
    state.pending = [];
    state.results = msg;
    // A key or tap meant for the round does nothing for a second.
    state.graceUntil = Date.now() + GRACE_MS;
    clearPath();
    $("clock").hidden = true;
    $("results-title").textContent = (state.daily ? "Today's board #" + state.daily.number : "Results of round " + msg.round) +
      (msg.last ? " (the last)" : "");
    const players = Array.isArray(msg.players) ? msg.players : [];
    const box = $("results-players");
    box.replaceChildren();
    let mine = null;
    for (const p of players) {
      const card = el("div", "player-result");
      card.dataset.name = String(p.name);
      const head = el("div", "head");
      const round = el("span", "round", "round: ");
      round.append(el("span", "score", String(Number(p.score) || 0)));
      head.append(el("span", "name", p.name), round);
      if (!state.solo) head.append(el("span", "total", "total: " + String(Number(p.total) || 0)));
      card.append(head);
      const words = el("ul", "words");
      for (const w of Array.isArray(p.words) ? p.words : []) {
        const li = el("li", w.cancelled ? "cancelled" : "");
        li.dataset.word = String(w.word);
        li.dataset.points = String(Number(w.points) || 0);
        li.dataset.cancelled = w.cancelled ? "true" : "false";
        li.append(wordButton(String(w.word) + (w.cancelled ? " (shared)" : " +" + (Number(w.points) || 0)), String(w.word)));
        words.append(li);
      }
      const total = Number(p.words_total) || 0;
      const shown = Array.isArray(p.words) ? p.words.length : 0;
      if (total > shown) words.append(el("li", "note", "and " + (total - shown) + " more"));
      if (total === 0) words.append(el("li", "note", "no words"));
      card.append(words);
      box.append(card);
      if (p.name === state.name) mine = p;
    }
    const best = players.length > 0 ? Number(players[0].score) || 0 : 0;
    const winners = players.filter((p) => (Number(p.score) || 0) === best).map((p) => String(p.name));
    $("winner").textContent = players.length < 2 ? "" : winners.length > 1
      ? "A tie: " + winners.join(", ") + " (" + pointsText(best) + ")"
      : "Winner: " + winners[0] + " (" + pointsText(best) + ")";
    const words = Number(msg.board_words) || 0;
    const points = Number(msg.board_points) || 0;
    const myWords = mine ? Number(mine.words_total) || 0 : 0;
    const myPoints = mine ? Number(mine.score) || 0 : 0;
    $("tally").textContent = words > 0
      ? "You: " + myWords + " of " + words + " words, " + myPoints + " of " + points + " points"
      : "";
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
    $("results-shared-box").hidden = sharedList.length === 0;
    const missed = $("results-missed");
    missed.replaceChildren();
    const missedList = Array.isArray(msg.missed) ? msg.missed : [];
    for (const m of missedList) {
      const li = el("li", m.rare ? "rare" : "");
      li.dataset.word = String(m.word);
      const label = String(m.word) + " " + (Number(m.points) || 0) + (m.rare ? " *" : "");
      const b = wordButton(label, String(m.word));
      if (m.rare) b.setAttribute("aria-label", m.word + ", " + pointsText(Number(m.points) || 0) + ", rare");
      li.append(b);
      missed.append(li);
    }
    const missedTotal = Number(msg.missed_total) || missedList.length;
    if (missedTotal > missedList.length) missed.append(el("li", "note", "(" + missedTotal + " in all)"));
    if (missedList.length === 0) missed.append(el("li", "note", "none"));
    drawBoard($("results-board"), false);
    $("results-path").textContent = "";
    dailyShare(mine);
    screen("results");
    $("again").hidden = false;
    $("link-copy").hidden = false;
    readyButton();
    $("ready-note").textContent = state.last ? "that was the room's last round" : "";
    setStatus(state.last ? "game over" : "round over");
    window.scrollTo(0, 0);
    $("results-title").focus({ preventScroll: true });
    setTimeout(() => {
      readyButton();
      // Ready takes the focus only after the grace, without scrolling the results away.
      if (!state.last && !state.inRound && state.results === msg) $("ready").focus({ preventScroll: true });
    }, GRACE_MS);
  }

  // The words of the results show their path on the results' board.
  $("results").addEventListener("click", (e) => {
    const b = e.target.closest ? e.target.closest("button.word") : null;
    if (!b) return;
    const path = findPath(b.dataset.word) || [];
    lightCells($("results-board"), path);
    $("results-path").textContent = path.length > 0 ? b.dataset.word + " on the board" : "";
  });

  // --- today's board ------------------------------------------------------

  function dailyShare(mine) {
    const box = $("share-box");
    box.hidden = !state.daily;
    if (!state.daily || !mine) return;
    const key = "boggle.daily." + state.daily.date;
    const words = (Array.isArray(mine.words) ? mine.words : []).map((w) => String(w.word));
    const longest = words.reduce((n, w) => Math.max(n, w.length), 0);
    const first = load("localStorage", key);
    const scored = first || { points: Number(mine.score) || 0, words: Number(mine.words_total) || 0, longest: longest };
    if (!first) save("localStorage", key, scored);
    // No letters: the share text spoils nothing for a friend yet to play.
    $("share").textContent = "Boggle #" + state.daily.number + ": " + pointsText(scored.points) + ", " +
      scored.words + (scored.words === 1 ? " word" : " words") + ", longest " + scored.longest + " letters" +
      (first ? "\n(this try was practice: your first try counts)" : "");
    showLeaderboard(state.daily.number);
  }

  // The server records each player's first result of the day before it
  // sends the results, so the table read now includes this round's.
  async function showLeaderboard(day) {
    const table = $("leaderboard");
    try {
      const r = await fetch("/daily/leaderboard?day=" + Number(day));
      if (!r.ok) { table.hidden = true; return; }
      const board = await r.json();
      const rows = (Array.isArray(board.results) ? board.results : []).map((p, i) => {
        const tr = el("tr", p.name === state.name ? "me" : "");
        for (const text of [i + 1, p.name, Number(p.points) || 0, Number(p.words) || 0]) tr.append(el("td", "", String(text)));
        return tr;
      });
      $("leaderboard-rows").replaceChildren(...rows);
      table.hidden = rows.length === 0;
    } catch (e) {
      table.hidden = true;
    }
  }

  async function loadDaily() {
    try {
      const r = await fetch("/daily");
      if (!r.ok) return null;
      const day = await r.json();
      $("daily-title").textContent = "Today's board #" + Number(day.number);
      if (load("localStorage", "boggle.daily." + day.date)) {
        $("daily-note").textContent = "You played today's board: a new try is practice, unscored.";
      }
      return day;
    } catch (e) {
      return null;
    }
  }
  const today = loadDaily();

  // --- the clock ------------------------------------------------------------

  function tick() {
    if (!state.inRound) return;
    const left = Math.max(0, state.deadline - Date.now());
    const s = Math.ceil(left / 1000);
    const clock = $("clock");
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.classList.toggle("low", s <= 10);
    // Announced once each for a screen reader: a minute left, then ten seconds.
    for (const mark of [60, 10]) {
      if (s <= mark && s > mark - 3 && state.announced !== mark) {
        state.announced = mark;
        $("alarm").textContent = mark === 60 ? "one minute left" : "ten seconds left";
      }
    }
    if (left === 0) setStatus("time is up: waiting for the results");
  }
  setInterval(tick, 250);

  // --- the board, tapping, swiping and the line ---------------------------------

  function drawBoard(board, live) {
    board.replaceChildren();
    board.style.setProperty("--cols", String(state.cols || 4));
    board.setAttribute("aria-label", "the board, " + state.rows + " by " + state.cols);
    state.board.forEach((face, i) => {
      const text = face === "QU" ? "Qu" : face;
      const cell = el(live ? "button" : "div", "cell" + (face === "" ? " blank" : ""), text);
      cell.dataset.index = String(i);
      cell.dataset.face = face;
      if (live) {
        cell.type = "button";
        cell.setAttribute("aria-label", (text || "blank") + ", row " + (Math.floor(i / state.cols) + 1) +
          ", column " + ((i % state.cols) + 1));
      }
      board.append(cell);
    });
  }

  function adjacent(a, b) {
    const dr = Math.floor(b / state.cols) - Math.floor(a / state.cols);
    const dc = (b % state.cols) - (a % state.cols);
    if ((dr === 0 && dc === 0) || Math.abs(dr) > 1 || Math.abs(dc) > 1) return false;
    return state.moves !== "no_up" || dr >= 0;
  }

  const pathWord = (path) => path.map((i) => state.board[i]).join("");

  function lightCells(board, path) {
    const cells = board.children;
    for (const cell of cells) cell.classList.remove("lit", "head");
    path.forEach((i, k) => {
      if (cells[i]) cells[i].classList.add(k === path.length - 1 ? "head" : "lit");
    });
  }

  function lightPath(path, bad) {
    lightCells($("board"), path);
    const trace = $("trace");
    trace.textContent = pathWord(path);
    trace.classList.toggle("bad", !!bad);
    drawLine(path);
  }

  // The line through the path: from the middle of each cell to the next.
  function drawLine(path) {
    const box = $("board-box").getBoundingClientRect();
    const cells = $("board").children;
    const points = path.filter((i) => cells[i]).map((i) => {
      const r = cells[i].getBoundingClientRect();
      return Math.round(r.left - box.left + r.width / 2) + "," + Math.round(r.top - box.top + r.height / 2);
    });
    $("line-path").setAttribute("points", points.length > 1 ? points.join(" ") : "");
  }

  function clearPath() {
    state.path = [];
    state.gesture = null;
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
    return dx * dx + dy * dy > 0.16 ? -1 : Number(cell.dataset.index);
  }

  // A swipe's next cell: a free neighbour extends the path, the one before goes back.
  function extend(path, i) {
    const n = path.length;
    if (i < 0 || state.board[i] === "" || (n > 0 && path[n - 1] === i)) return false;
    if (n > 1 && path[n - 2] === i) path.pop();
    else if (n === 0 || (adjacent(path[n - 1], i) && !path.includes(i))) path.push(i);
    else return false;
    return true;
  }

  // A tap: the first cell, a neighbour of the last, the last again (send), or an earlier one (back to it).
  function tap(i) {
    if (!state.inRound || Date.now() < state.graceUntil || state.board[i] === "") return;
    $("word").value = "";
    const path = state.path;
    const at = path.indexOf(i);
    if (at === path.length - 1 && at >= 0) {
      sendPath();
      return;
    }
    if (at >= 0) path.length = at + 1;
    else if (path.length === 0 || adjacent(path[path.length - 1], i)) path.push(i);
    else {
      setStatus("tap a letter next to the last one", true);
      return;
    }
    lightPath(path, false);
  }

  function sendPath() {
    const word = pathWord(state.path);
    clearPath();
    if (word.length > 0) sendWord(word);
  }

  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    if (!state.inRound || e.button > 0) return;
    const cell = e.target.closest ? e.target.closest(".cell") : null;
    if (!cell) return;
    e.preventDefault();
    state.gesture = { start: Number(cell.dataset.index), moved: false, path: [Number(cell.dataset.index)] };
    try { board.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events */ }
  });
  board.addEventListener("pointermove", (e) => {
    const g = state.gesture;
    if (!g) return;
    e.preventDefault();
    const i = cellAt(e.clientX, e.clientY);
    if (i < 0 || i === g.start && !g.moved) return;
    // Over another cell: this is a swipe, whatever it started from.
    g.moved = true;
    if (extend(g.path, i)) {
      state.path = g.path.slice();
      lightPath(state.path, false);
    } else if (!state.path.length || state.path[0] !== g.start) {
      state.path = g.path.slice();
      lightPath(state.path, false);
    }
  });
  board.addEventListener("pointerup", (e) => {
    const g = state.gesture;
    if (!g) return;
    e.preventDefault();
    state.gesture = null;
    if (g.moved) {
      state.path = g.path;
      sendPath();
    } else {
      tap(g.start);
    }
  });
  board.addEventListener("pointercancel", () => clearPath());
  // The keyboard's tap: Enter or Space on a focused letter (a pointer's click has detail > 0).
  board.addEventListener("click", (e) => {
    const cell = e.target.closest ? e.target.closest(".cell") : null;
    if (cell && e.detail === 0) tap(Number(cell.dataset.index));
  });
  window.addEventListener("resize", () => drawLine(state.path));

  // Where a word lies on the board under the room's move rule: the first
  // path found. Bounded: letters the board lacks are refused at once, dead
  // ends (a cell and the cells used) are remembered, and past PATH_STEPS
  // steps it answers "no path" (a board of one letter would take hours).
  function findPath(word) {
    const letters = word.toUpperCase();
    const cells = state.board;
    if (letters.length === 0 || letters.length > 64) return [];
    const need = {};
    for (const c of letters) need[c] = (need[c] || 0) + 1;
    for (const face of cells) for (const c of face) if (need[c]) need[c] -= 1;
    if (Object.values(need).some((n) => n > 0)) return null;
    const dead = new Set();
    const used = [];
    let steps = PATH_STEPS;
    const walk = (i, at) => {
      const face = cells[i];
      if (face === "" || used.includes(i) || !letters.startsWith(face, at)) return false;
      const next = at + face.length;
      if (next === letters.length) { used.push(i); return true; }
      const key = i + ":" + used.slice().sort((a, b) => a - b).join(",");
      if (dead.has(key) || --steps < 0) return false;
      used.push(i);
      for (let j = 0; j < cells.length; j++) {
        if (adjacent(i, j) && walk(j, next)) return true;
      }
      used.pop();
      if (steps >= 0) dead.add(key);
      return false;
    };
    for (let i = 0; i < cells.length; i++) if (walk(i, 0)) return used;
    return null;
  }
  window.boggleFindPath = findPath; // for the browser test's bound

  $("word").addEventListener("input", () => {
    if (!state.inRound || state.gesture) return;
    state.path = [];
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
    if (!state.inRound) return;
    if (word) {
      lightPath([], false);
      state.path = [];
      sendWord(word);
    } else {
      sendPath(); // Enter after tapping letters sends them
    }
    input.focus();
  });
  $("word").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      $("word").value = "";
      clearPath();
    }
  });

  // In the grace after a round, Enter and Space do nothing anywhere.
  document.addEventListener("keydown", (e) => {
    if (Date.now() < state.graceUntil && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  $("done").addEventListener("click", () => {
    if (send({ type: "done" })) {
      $("done").disabled = true;
      setStatus("done: waiting for the others");
    }
  });

  $("ready").addEventListener("click", () => {
    if (Date.now() < state.graceUntil) return;
    if (send({ type: "ready" })) {
      state.ready = true;
      readyButton();
    }
  });

  // --- home, links and help ----------------------------------------------------------

  const playerName = () => ($("home-name").value.trim() || "Player").slice(0, 20);
  // The name is remembered by the browser; the password (a server may ask for one) only used.
  const rememberName = () => {
    save("localStorage", "boggle.name", $("home-name").value.trim());
    state.password = $("home-password").value;
  };

  function soloGame(solo) {
    rememberName();
    state.daily = null;
    start(playerName(), "solo", solo);
  }

  $("solo-button").addEventListener("click", () => {
    const level = $("versus").value;
    soloGame(level ? { computer: level } : {});
  });
  $("daily-button").addEventListener("click", async () => {
    rememberName();
    const day = await today;
    start(playerName(), "solo", { daily: true });
    state.daily = day;
  });
  $("friends-button").addEventListener("click", () => {
    rememberName();
    $("name").value = $("home-name").value.trim();
    $("password").value = $("home-password").value;
    screen("join");
    $("name").focus();
  });

  // A board's letters for a link: Qu written as on the die.
  const boardLetters = () => state.board.map((f) => (f === "QU" ? "Qu" : f || ".")).join("");
  function boardLink() {
    return location.origin + "/?board=" + encodeURIComponent(boardLetters()) + "&size=" + state.rows + "x" + state.cols;
  }
  $("again").addEventListener("click", () => {
    if (Date.now() < state.graceUntil) return;
    soloGame({ board: boardLetters(), size: [state.rows, state.cols] });
  });
  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(what + " copied");
    } catch (e) {
      setStatus("could not copy: select it and copy it by hand", true);
    }
  }
  $("link-copy").addEventListener("click", () => copy(boardLink(), "the link to this board"));
  $("room-link-copy").addEventListener("click", () => copy($("room-link").value, "the room's link"));
  $("share-copy").addEventListener("click", () => copy($("share").textContent, "the result"));
  // Home leaves the game (the seat is forgotten) without a page load.
  $("home-link").addEventListener("click", (e) => {
    e.preventDefault();
    state.ending = true;
    if (state.ws) state.ws.close();
    state.ws = null;
    history.replaceState(null, "", "/");
    backHome();
    screen("home");
    setStatus("");
  });

  const RULES = {
    classic: ["Words of 3 letters or more (4 on 5x5 and 6x6 boards).", "3 or 4 letters: 1 point, 5: 2, 6: 3, 7: 5, 8 or more: 11."],
    project4: ["Words of 3 letters or more.", "Points by length, as the course's game scores them.", "A path never goes up a row."],
    cs106b: ["Words of 4 letters or more.", "Points by length: 4 letters 1 point, each letter more 1 more."],
    tddd86: ["Words of 4 letters or more.", "A word scores its length less 3."],
    algs4: ["Words of 3 letters or more.", "3 or 4 letters: 1 point, 5: 2, 6: 3, 7: 5, 8 or more: 11."],
  };
  function helpRules() {
    const list = $("help-rules");
    list.replaceChildren();
    const lines = (RULES[state.rules] || RULES.classic).concat([
      "Each letter is used once in a word, each next to the one before" +
        (state.moves === "no_up" ? " (sideways, down, or diagonally down)." : " (in any of 8 directions)."),
      "Qu is one letter.",
      state.solo ? "Solo: every word you find counts." : state.duplicates === "count"
        ? "Words found by several players score for each." : "Words found by more than one player score for none.",
    ]);
    for (const line of lines) list.append(el("li", "", line));
  }
  helpRules();
  $("help-button").addEventListener("click", () => $("help").showModal());
  $("help-close").addEventListener("click", () => $("help").close());

  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    if (name.length === 0) {
      setStatus("type a name first", true);
      $("name").focus();
      return;
    }
    state.password = $("password").value;
    $("join-button").disabled = true;
    state.daily = null;
    start(name, $("room").value.trim() || "main", null);
  });

  // --- start ------------------------------------------------------------------------

  const params = new URLSearchParams(location.search);
  $("password-row").hidden = document.body.dataset.password !== "yes";
  $("home-password-row").hidden = $("password-row").hidden;
  $("home-name").value = load("localStorage", "boggle.name") || "";
  const seat = load("sessionStorage", SEAT);
  const size = /^(\d+)x(\d+)$/.exec(params.get("size") || "");
  // A link to another board or room starts that; anything else resumes the seat.
  const linked = params.get("board") || (params.get("room") && (!seat || params.get("room") !== seat.room));
  if (seat && seat.token && seat.room && !linked) {
    // A reload: the seat is taken back silently, with this round's words.
    Object.assign(state, { password: String(seat.password || ""), resumed: true });
    start(String(seat.name), String(seat.room), seat.solo || null);
    state.token = String(seat.token);
    if (seat.solo && seat.solo.daily) today.then((day) => { state.daily = day; });
  } else if (params.get("room")) {
    $("room").value = params.get("room").slice(0, 20);
    $("name").value = $("home-name").value;
    screen("join");
    $("name").focus();
  } else if (params.get("board")) {
    soloGame({ board: params.get("board").slice(0, 80), size: size ? [Number(size[1]), Number(size[2])] : undefined });
  } else {
    screen("home");
  }
})();
