// The page's side of Discord's Embedded App protocol, written here from the protocol the public
// @discord/embedded-app-sdk speaks (docs/activity.md says why the page speaks it itself): messages posted to
// the parent frame (Discord's client) as [opcode, payload]. The page says hello (HANDSHAKE, with its
// application's client id and the frame id Discord gave it in the address), Discord answers with a READY
// event; then each command ({cmd, args, nonce}) gets one answer with the same nonce ({cmd, data, evt: null},
// or evt "ERROR"), and events come as DISPATCH. The page uses AUTHORIZE (a sign-in code), AUTHENTICATE (the
// access token its server got for that code), and the instance's participants (a command, and an event
// subscribed to). Nothing said here is trusted by the server: it asks Discord itself who someone is.
"use strict";

const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;
const HELLO = 3;
const DISPATCH = "DISPATCH";
const ERROR = "ERROR";
const READY = "READY";
// The SDK release whose messages these are, word for word: Discord's client reads the version from the
// handshake (its phone clients from major version 250 on; older ones are sent none, as the SDK does).
const SDK_VERSION = "2.5.0";
const MOBILE_VERSION_WITH_SDK = 250;

// A CSP source ("https://*.discord.com", "'self'") as a test of an origin.
function originTest(source) {
  if (source === "'self'") return (origin) => origin === location.origin;
  const pattern = source.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*\\\./g, "[^./]+\\.");
  const expression = new RegExp(`^${pattern}$`);
  return (origin) => expression.test(origin);
}

function nonce() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class DiscordError extends Error {
  constructor(code, message) {
    super(message || `Discord refused (${code}).`);
    this.code = code;
  }
}

// The parent frame, once it answered the handshake: commands, and events subscribed to.
export class Parent {
  constructor(clientId, frameId, parents, query) {
    this.clientId = clientId;
    this.frameId = frameId;
    const tests = [...parents, "'self'"].map(originTest);
    // Discord's phone clients post from an opaque origin ("null"), which the SDK accepts too.
    this.allowed = (origin) => origin === "null" || tests.some((test) => test(origin));
    this.target = window.parent.opener ?? window.parent;
    const referrer = document.referrer ? new URL(document.referrer).origin : null;
    this.targetOrigin = referrer && this.allowed(referrer) ? referrer : "*";
    this.pending = new Map();
    this.listeners = new Map();
    this.closed = null; // what Discord said when it closed the connection
    this.onClose = () => {};
    this.ready = new Promise((resolve) => { this.listeners.set(READY, [resolve]); });
    window.addEventListener("message", (event) => this.received(event));
    const hello = { v: 1, encoding: "json", client_id: this.clientId, frame_id: this.frameId };
    const mobile = Number.parseInt((query.get("mobile_app_version") || "").split(".")[0], 10);
    if (query.get("platform") !== "mobile" || mobile >= MOBILE_VERSION_WITH_SDK) hello.sdk_version = SDK_VERSION;
    this.post([HANDSHAKE, hello]);
  }

  post(message) {
    this.target.postMessage(message, this.targetOrigin);
  }

  // Discord's answer's data; a DiscordError if it answered with an error.
  command(cmd, args, evt) {
    const id = nonce();
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.post([FRAME, evt === undefined ? { cmd, args, transfer: null, nonce: id } : { cmd, args, evt, nonce: id }]);
    return answer;
  }

  // Call `listener` with each of these events' data from now on.
  async subscribe(evt, args, listener) {
    const listeners = this.listeners.get(evt) || [];
    this.listeners.set(evt, [...listeners, listener]);
    if (!listeners.length) await this.command("SUBSCRIBE", args, evt);
  }

  received(event) {
    if (event.source !== this.target && event.source !== window.parent) return;
    if (!this.allowed(event.origin) || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (opcode === CLOSE) {
      this.closed = payload && payload.message ? payload.message : `code ${payload && payload.code}`;
      this.onClose(this.closed);
      return;
    }
    if (opcode === HANDSHAKE || opcode === HELLO || opcode !== FRAME || !payload) return;
    if (payload.cmd === DISPATCH) {
      for (const listener of this.listeners.get(payload.evt) || []) listener(payload.data);
      return;
    }
    const waiting = this.pending.get(payload.nonce);
    if (!waiting) return;
    this.pending.delete(payload.nonce);
    if (payload.evt === ERROR) {
      waiting.reject(new DiscordError(payload.data && payload.data.code, payload.data && payload.data.message));
    } else {
      waiting.resolve(payload.data);
    }
  }
}

// The parent frame of this page, after its READY; null when the page is not framed by Discord (no frame_id
// or instance_id in its address).
export async function connect(query, clientId, parents) {
  const frameId = query.get("frame_id");
  if (!frameId || !query.get("instance_id") || window.parent === window) return null;
  const parent = new Parent(clientId, frameId, parents, query);
  await parent.ready;
  return parent;
}
