"use strict";
// Earshot's reference voice-mode page. It talks to earshotd over one WebSocket, where each text
// message is one JSON request, response or event, exactly as a line of the Unix socket
// (PROTOCOL.md). Everything on screen comes from the daemon's messages:
//
//   1. state      one object holding everything the screen shows
//   2. render     draws the screen from `state` (the blob animates itself, see blob.js)
//   3. protocol   applies the daemon's responses and events to `state`
//   4. connection the WebSocket: the token, reconnecting with backoff, a refused token
//   5. wiring     buttons and keys send commands

/** Where earshotd is: the page's own origin. A page served elsewhere would name it here. */
const DAEMON = location.host;
const TOPICS = ["state", "speech", "transcript", "level", "speaker", "error", "device"];
const LEVEL_HZ = 60;
const MAX_BACKOFF_S = 30;
const CAPTION_LINES = 6;
const TOKEN_KEY = "earshot-token";
/** Close codes that mean "not allowed" (policy violation, and the app range's 4001/4003). */
const REFUSED_CODES = [1008, 4001, 4003];
const STATE_WORDS = {
  idle: "Voice mode off",
  listening: "Listening",
  hearing: "Hearing you",
  thinking: "Thinking",
  speaking: "Speaking",
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// 1. State

const state = {
  connection: "connecting", // connecting | connected | reconnecting | refused
  retryAt: 0,               // reconnecting: when the next attempt is due (ms since the epoch)
  refusedWhy: "",           // refused: the first sentence of the explanation
  voice: { state: "idle", turn: 0, muted: false, controls: [], waitingFor: "" }, // the latest `state` event
  soundLost: "",            // the daemon's words while the sound server is away, else ""
  notice: "",               // a passing message (an `error` event, a failed command)
  voices: [],               // from `voices`: {id, name, description, language, current}
  currentVoice: "",         // the current voice's id
  language: "",             // status: settings.transcription.language ("en-US")
  captions: [],             // {key, who, text, partial, paused, cut}, oldest first
  captionsVersion: 0,       // bumped on every caption change, so render redraws them only then
};

// ---------------------------------------------------------------------------------------------
// 2. Render

const blob = createBlob($("blob"), $("blob-path"));
let drawnCaptions = -1;
let drawnVoices = "";

function render() {
  const { connection, voice } = state;
  const live = connection === "connected";

  document.body.dataset.state = voice.state;
  document.body.dataset.connection = connection;

  setText($("connection"), {
    connecting: "Connecting…", connected: "Connected", reconnecting: "Reconnecting…", refused: "Not allowed",
  }[connection]);
  $("offline").hidden = connection !== "reconnecting" && connection !== "refused";
  $("reconnecting-text").hidden = connection !== "reconnecting";
  setText($("reconnecting-text"), reconnectingText());
  $("refused-text").hidden = connection !== "refused";
  setText($("refused-why"), state.refusedWhy);
  $("retry").hidden = connection !== "reconnecting";
  $("sound-lost").hidden = !live || !state.soundLost;
  document.body.classList.toggle("sound-lost", live && Boolean(state.soundLost));
  setText($("sound-detail"), state.soundLost);

  const [headline, subline] = introCopy();
  setText($("headline"), headline);
  setText($("subline"), subline);

  // The blob is the cancel button, enabled only while `cancel` is offered.
  const cancel = $("cancel");
  cancel.disabled = !offered("cancel");
  cancel.setAttribute("aria-hidden", String(cancel.disabled));
  blob.setMode(live ? voice.state : "offline", { muted: voice.muted });

  // Voice mode off has no controls: the start button stands in for them.
  $("start").hidden = !(live && voice.state === "idle");
  $("stop").hidden = !offered("stop");
  $("dismiss").hidden = !offered("dismiss");
  const unmute = offered("unmute");
  $("mute").hidden = !offered("mute") && !unmute;
  $("mute").dataset.muted = String(unmute);
  setText($("mute-label"), unmute ? "Unmute" : "Mute");

  renderVoices(live);
  renderCaptions();
  $("notice").hidden = !state.notice;
  setText($("notice"), state.notice);
}

/** Whether the latest `state` event offers `control` (and the socket is there to send it). */
function offered(control) {
  return state.connection === "connected" && state.voice.controls.includes(control);
}

function introCopy() {
  switch (state.connection) {
    case "connecting": return ["Connecting to Earshot…", ""];
    case "reconnecting": return ["Earshot is away", "Your conversation picks up when it is back."];
    case "refused": return ["Not connected", ""];
  }
  if (state.soundLost && state.voice.state !== "idle") return ["Waiting for the sound server", ""];
  switch (state.voice.state) {
    case "idle": return ["Voice mode is off", "Start it, then just talk."];
    case "listening": return state.voice.muted
      ? ["Your microphone is muted", "Unmute to talk."]
      : state.voice.waitingFor
      ? [`Say “${state.voice.waitingFor}”`, "Then talk: Earshot listens until you are quiet for a while."]
      : ["Just start talking", "Hands-free: pause when you are done and Earshot answers."];
    case "hearing": return ["Hearing you", "Pause when you are done."];
    case "thinking": return ["Thinking…", ""];
    case "speaking": return ["Speaking", "Start talking to interrupt."];
    default: return [STATE_WORDS[state.voice.state] || state.voice.state, ""];
  }
}

function reconnectingText() {
  const seconds = Math.ceil((state.retryAt - Date.now()) / 1000);
  return seconds > 0 ? `Earshot is not answering. Reconnecting in ${seconds} s.` : "Earshot is not answering. Reconnecting…";
}

function renderVoices(live) {
  const select = $("voice");
  const signature = state.voices.map((voice) => `${voice.id}:${voice.name}`).join(",");
  if (signature !== drawnVoices) {
    select.replaceChildren(...state.voices.map((voice) => new Option(voice.name, voice.id)));
    drawnVoices = signature;
  }
  select.disabled = !live || state.voices.length === 0;
  if (state.currentVoice && select.value !== state.currentVoice) select.value = state.currentVoice;
  const current = state.voices.find((voice) => voice.id === state.currentVoice);
  setText($("voice-about"), current ? current.description : "");
  $("language").hidden = !state.language;
  setText($("language"), state.language ? `Language: ${languageName(state.language)}` : "");
}

function renderCaptions() {
  if (drawnCaptions === state.captionsVersion) return;
  drawnCaptions = state.captionsVersion;
  $("captions").replaceChildren(...state.captions.map((line) => {
    const paragraph = document.createElement("p");
    paragraph.className = `line ${line.key.startsWith("you") ? "you" : "reply"}`;
    paragraph.classList.toggle("partial", line.partial);
    paragraph.classList.toggle("paused", line.paused);
    paragraph.classList.toggle("cut", line.cut);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = line.who;
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = line.text || "…";
    paragraph.append(who, words);
    return paragraph;
  }));
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function languageName(code) {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) || code;
  } catch {
    return code;
  }
}

/** Says `text` to screen readers (the page's one aria-live region). */
let announceTimer = 0;
function announce(text) {
  const announcer = $("announcer");
  announcer.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { announcer.textContent = text; }, 50); // a repeat is read again
}

let noticeTimer = 0;
function showNotice(text, seconds = 8) {
  state.notice = text;
  announce(text);
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { state.notice = ""; render(); }, Math.max(8, seconds + 2) * 1000);
}

// ---------------------------------------------------------------------------------------------
// 3. Protocol: what each response and event does to the state

function onConnected() {
  request("status", {}, applyStatus);
  request("subscribe", { topics: TOPICS, level_hz: LEVEL_HZ });
  request("voices", {}, applyVoices);
}

function applyStatus(reply) {
  if (!reply.ok) return reportFailure(reply);
  applyVoiceState(reply.state || {});
  const audio = reply.audio || {};
  state.soundLost = audio.connected === false ? "The sound server is not connected." : "";
  state.currentVoice = (reply.backends && reply.backends.voice) || state.currentVoice;
  const transcription = reply.settings && reply.settings.transcription;
  state.language = (transcription && transcription.language) || "";
}

function applyVoices(reply) {
  if (!reply.ok) return reportFailure(reply);
  state.voices = reply.voices || [];
  const current = state.voices.find((voice) => voice.current);
  if (current) state.currentVoice = current.id;
}

function applyVoiceState(event) {
  const before = state.voice;
  state.voice = {
    state: event.state || "idle",
    turn: event.turn || 0,
    muted: Boolean(event.muted),
    controls: Array.isArray(event.controls) ? event.controls : [],
    waitingFor: typeof event.waiting_for === "string" ? event.waiting_for : "",
  };
  if (before.state !== state.voice.state) announce(STATE_WORDS[state.voice.state] || state.voice.state);
  else if (before.muted !== state.voice.muted) announce(state.voice.muted ? "Microphone muted" : "Microphone on");
}

const onEvent = {
  state: applyVoiceState,
  level: (event) => blob.setLevel(event.source, event.level, event.bands),
  // Utterance boundaries: the `state` events that follow them already show them.
  speech: () => {},
  transcript(event) {
    const key = `you-${event.turn}`;
    if (event.final && !event.text) removeCaption(key); // nothing was recognised
    else putCaption(key, { who: "You", text: event.text, partial: !event.final });
  },
  speaker(event) {
    const key = `reply-${event.reply}`;
    const line = state.captions.find((caption) => caption.key === key);
    if (!line && event.phase !== "start" && event.phase !== "say") return; // began before we connected
    switch (event.phase) {
      case "start":
        removeCaption(key); // a new reply (or preview, reply 0) goes to the bottom
        putCaption(key, { who: voiceName(event.voice), text: event.text || "", partial: false, paused: false, cut: false });
        break;
      case "say": // the next sentence
        if (event.text) putCaption(key, line ? { text: `${line.text} ${event.text}`.trim() } : { who: "Earshot", text: event.text });
        break;
      case "pause": putCaption(key, { paused: true }); break;
      case "resume": putCaption(key, { paused: false }); break;
      case "stop": putCaption(key, { paused: false, cut: true }); break;
      case "end": putCaption(key, { paused: false }); break;
    }
  },
  error(event) {
    if (event.code === "sound_server_lost") state.soundLost = event.message || "The sound server went away.";
    else showNotice(event.message || event.code, event.retry_in || 0);
  },
  device(event) {
    if (event.change === "connected") state.soundLost = "";
    else if (event.change === "disconnected" && !state.soundLost) state.soundLost = "The sound server went away.";
  },
};

function putCaption(key, fields) {
  let line = state.captions.find((caption) => caption.key === key);
  if (!line) {
    line = { key, who: "", text: "", partial: false, paused: false, cut: false };
    state.captions.push(line);
    if (state.captions.length > CAPTION_LINES) state.captions.shift();
  }
  Object.assign(line, fields);
  state.captionsVersion++;
}

function removeCaption(key) {
  const before = state.captions.length;
  state.captions = state.captions.filter((caption) => caption.key !== key);
  if (state.captions.length !== before) state.captionsVersion++;
}

function voiceName(id) {
  const voice = state.voices.find((candidate) => candidate.id === id);
  return voice ? voice.name : "Earshot";
}

function reportFailure(reply) {
  const error = reply.error || {};
  showNotice(error.message || `The daemon refused this (${error.code || "unknown error"}).`);
}

/** One message from the daemon: an event, or the response to one of our requests. */
function receive(message) {
  if (typeof message.event === "string") {
    const apply = onEvent[message.event];
    if (apply) apply(message);
    if (message.event === "level") return; // 60 a second per source: the blob reads them itself
  } else {
    connection.answer(message);
  }
  render();
}

// ---------------------------------------------------------------------------------------------
// 4. Connection: one WebSocket, reconnected with backoff (1, 2, 4 … 30 s) until it opens again

/** The token from `#token=HEX` (kept for reloads in sessionStorage), taken out of the address bar. */
function takeToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  let token = fragment.get("token") || "";
  if (fragment.has("token")) history.replaceState(null, "", location.pathname + location.search);
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else token = sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    // Storage is off: the token lives as long as this page.
  }
  return token;
}

const connection = (() => {
  let token = takeToken();
  const replies = new Map(); // request id → what to do with its response
  let socket = null;
  let nextId = 1;
  let generation = 0;        // bumped by every attempt, so a stale close does nothing
  let failures = 0;          // attempts since the socket was last open: the backoff's exponent
  let closedBeforeOpen = 0;  // attempts in a row that closed without ever opening
  let everOpened = false;
  let retryTimer = 0;
  let countdown = 0;

  function connect() {
    clearTimeout(retryTimer);
    clearInterval(countdown);
    if (!token) return refuse("This page has no access token.");
    if (state.connection !== "reconnecting") state.connection = "connecting";
    render();
    const attempt = ++generation;
    let opened = false;
    try {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${DAEMON}/socket?token=${encodeURIComponent(token)}`);
    } catch {
      socket = null;
      return closed(attempt, 1006, false);
    }
    socket.onopen = () => {
      opened = everOpened = true;
      const wasAway = state.connection === "reconnecting";
      failures = closedBeforeOpen = 0;
      state.connection = "connected";
      if (wasAway) announce("Connected again");
      onConnected();
      render();
    };
    socket.onmessage = (message) => {
      let parsed;
      try { parsed = JSON.parse(message.data); } catch { return; }
      receive(parsed);
    };
    socket.onclose = (event) => closed(attempt, event.code, opened);
  }

  async function closed(attempt, code, opened) {
    if (attempt !== generation || state.connection === "refused") return;
    socket = null;
    replies.clear();
    if (REFUSED_CODES.includes(code)) return refuse("This page's access token was refused.");
    if (!opened) {
      closedBeforeOpen++;
      // A refused upgrade looks like any failed connection to the page; ask over HTTP why.
      const probe = await probeToken();
      if (attempt !== generation) return; // Retry was pressed meanwhile
      if (probe === "refused" || (probe === "unreachable" && !everOpened && closedBeforeOpen >= 2)) {
        return refuse("This page's access token was refused.");
      }
    }
    const delay = Math.min(MAX_BACKOFF_S, 2 ** failures);
    failures++;
    state.connection = "reconnecting";
    state.retryAt = Date.now() + delay * 1000;
    announce(`Reconnecting in ${delay} ${delay === 1 ? "second" : "seconds"}`);
    retryTimer = setTimeout(connect, delay * 1000);
    countdown = setInterval(render, 1000);
    render();
  }

  /** "refused" (401), "answered" (any other status), or "unreachable" (no answer). */
  async function probeToken() {
    try {
      const response = await fetch(`${location.protocol}//${DAEMON}/socket?token=${encodeURIComponent(token)}`, {
        cache: "no-store", credentials: "omit",
      });
      // The daemon checks the token (401) before the Origin (403). The browser sends no Origin
      // with a same-origin GET, so a 403 here means the token passed: not a refusal.
      return response.status === 401 ? "refused" : "answered";
    } catch {
      return "unreachable"; // the daemon is not listening (or, from another origin, CORS hid it)
    }
  }

  function refuse(why) {
    clearTimeout(retryTimer);
    clearInterval(countdown);
    state.connection = "refused";
    state.refusedWhy = why;
    announce(`${why} Run earshot open to get a fresh link.`);
    render();
  }

  return {
    connect,
    /** A new `#token=` pasted into this tab's address bar (a same-page navigation). */
    tokenChanged() {
      const fresh = takeToken();
      if (!fresh || fresh === token) return;
      token = fresh;
      everOpened = false;
      failures = closedBeforeOpen = 0;
      generation++; // the old socket's close is not a failure
      if (socket) socket.close();
      socket = null;
      state.connection = "connecting";
      connect();
    },
    retryNow() {
      if (state.connection === "reconnecting") connect();
    },
    /** Sends `{id, cmd, …args}`; `onReply` gets the response (failures are shown by default). */
    request(cmd, args = {}, onReply = (reply) => { if (!reply.ok) reportFailure(reply); }) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      const id = nextId++;
      replies.set(id, onReply);
      socket.send(JSON.stringify({ id, cmd, ...args }));
    },
    answer(reply) {
      const onReply = replies.get(reply.id);
      replies.delete(reply.id);
      if (onReply) onReply(reply);
      else if (reply.ok === false) reportFailure(reply); // e.g. `permission_denied`, id null
    },
  };
})();

const request = connection.request;

// ---------------------------------------------------------------------------------------------
// 5. Wiring: every control is a button (or the voice <select>) and sends one command

$("start").addEventListener("click", () => request("start"));
$("stop").addEventListener("click", () => request("stop"));
$("cancel").addEventListener("click", () => request("cancel"));
$("dismiss").addEventListener("click", () => request("dismiss"));
$("mute").addEventListener("click", () => request(offered("unmute") ? "unmute" : "mute"));
$("retry").addEventListener("click", () => connection.retryNow());
window.addEventListener("hashchange", () => connection.tokenChanged());

// Choosing a voice makes it the current one, then lets it introduce itself.
$("voice").addEventListener("change", (event) => {
  const chosen = event.target.value;
  request("set-voice", { voice: chosen }, (reply) => {
    if (!reply.ok) {
      reportFailure(reply);
    } else {
      state.currentVoice = reply.voice;
      state.voices.forEach((voice) => { voice.current = voice.id === reply.voice; });
      request("preview", { voice: reply.voice });
    }
    render();
  });
});

// Escape stops the reply, or cancels the turn, whichever is offered.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  if (offered("stop")) request("stop");
  else if (offered("cancel")) request("cancel");
});

render();
connection.connect();
