/* Site chat widget: served at /site-chat/widget.js, embedded by
   <script src=".../site-chat/widget.js" data-public-key="..." async></script>.
   Every text from the server or the site goes in as text (textContent), never as HTML. */
(function () {
  "use strict";
  var tag = document.currentScript || document.querySelector("script[data-public-key][src*='/site-chat/widget.js']");
  if (!tag || window.__siteChatLoaded) return;
  window.__siteChatLoaded = true;
  var KEY = tag.getAttribute("data-public-key") || "";
  var BASE = new URL(tag.src, location.href).origin;
  var store = { get: function (s, k) { try { return s.getItem("sitechat:" + k); } catch (e) { return null; } },
    set: function (s, k, v) { try { s.setItem("sitechat:" + k, v); } catch (e) {} } };
  var cfg, me = {}, ws, wsOpen = false, backoff = 500, seq = 0, queue = [], shown = {}, pending = {}, ui = {}, tracking, monitor, call;
  // The widget's own texts; it has no languages of its own yet.
  var TEXT = { sending: "Sending\u2026", sent: "Sent", failed: "Not sent.", retry: "Retry", send: "Send", attach: "Attach a file", message: "Message" };
  // Icons are inline SVG: an emoji glyph is an empty box where the visitor has no emoji font.
  var ICONS = {
    chat: ["M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.5 3.4 6l-.9 4 4.6-2.4c.9.2 1.9.4 2.9.4 5.5 0 10-3.6 10-8s-4.5-8-10-8z"],
    send: ["M2.5 20.5 22 12 2.5 3.5v6.5l13 2-13 2z"],
    attach: ["M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9", true] };

  function id() { return Date.now().toString(36) + "-" + (++seq) + "-" + Math.random().toString(36).slice(2, 8); }
  function randomID() {
    var b = new Uint8Array(18); crypto.getRandomValues(b);
    return btoa(String.fromCharCode.apply(null, b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
  }
  function api(method, path, body) {
    var h = { "Content-Type": "application/json" };
    if (me.visitor_token) h["X-Visitor-Token"] = me.visitor_token;
    return fetch(cfg.endpoint_base + path, { method: method, headers: h, body: body ? JSON.stringify(body) : undefined, keepalive: method === "POST" && !!body && JSON.stringify(body).length < 60000 })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.status === 204 ? null : r.json(); });
  }

  // The socket: every message is a SiteChatWSEnvelope; the server answers ack or error.
  function send(type, payload, ids) {
    var e = { id: id(), type: type, sent_at: new Date().toISOString(), payload: payload || {} };
    for (var k in ids || {}) e[k] = ids[k];
    if (wsOpen) { ws.send(JSON.stringify(e)); return e.id; }
    return "";
  }
  function connect() {
    var u = cfg.endpoint_base.replace(/^http/, "ws") + "/ws?public_key=" + encodeURIComponent(KEY) +
      "&visit_session_id=" + me.visit_session_id + "&visitor_token=" + encodeURIComponent(me.visitor_token);
    ws = new WebSocket(u);
    ws.onopen = function () {
      wsOpen = true; state(); backoff = 500; flush(); if (ui.loaded) history();
      // Presence (posted before each connection) says where monitoring stands: a new page of
      // a monitored visit records again; after a gap the operator gets the whole page again.
      var mon = me.monitoring_status;
      if (mon === "active") { if (monitor && monitor.rec) monitor.rec.snapshot(); else startMonitoring(); }
      else { stopMonitoring(); if (mon === "requested") askMonitoring(); }
    };
    ws.onmessage = function (m) { var e; try { e = JSON.parse(m.data); } catch (x) { return; } receive(e); };
    ws.onclose = function () {
      wsOpen = false; state();
      // A message the socket took but never answered may not have arrived: the visitor retries.
      for (var k in pending) failed(pending[k]);
      pending = {};
      // Exponential backoff with jitter; a refused token means presence must be posted again.
      setTimeout(function () { presence().then(connect, connect); }, backoff + Math.random() * backoff);
      backoff = Math.min(backoff * 2, 30000);
    };
  }
  // The host element says whether the socket is up (data-connected), for the site's own checks.
  function state() { if (ui.host) ui.host.setAttribute("data-connected", String(wsOpen)); }
  setInterval(function () { send("visitor.heartbeat"); }, 25000);

  function receive(e) {
    var p = e.payload || {};
    switch (e.type) {
      case "ack": if (pending[e.id]) delivered(pending[e.id], p); delete pending[e.id]; break;
      case "error": if (pending[e.id]) failed(pending[e.id]); delete pending[e.id]; break;
      case "chat.message": addMessage(p); break;
      case "chat.typing": if (ui.typing) ui.typing.textContent = p.typing ? "\u2026" : ""; break;
      case "operator.invite": invite(p, e); break;
      case "monitoring.start": if (p.monitoring_status === "requested") askMonitoring(); else if (p.monitoring_status === "active") startMonitoring(); break;
      case "monitoring.stop": stopMonitoring(); break;
      case "call.offer": case "call.request": offerCall(p, e); break;
      case "call.end": case "call.cancel": case "call.reject": endCall(e.call_session_id); break;
      case "webrtc.offer": case "webrtc.ice": signal(e); break;
    }
  }

  // Presence creates or resumes the visitor and visit session and gives the token.
  function presence() {
    var anon = store.get(localStorage, "anon:" + KEY);
    if (!anon) { anon = randomID(); store.set(localStorage, "anon:" + KEY, anon); }
    var body = { public_key: KEY, anonymous_id: anon, url: location.href, title: document.title, referrer: document.referrer,
      language: navigator.language, user_agent: navigator.userAgent, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      screen_width: screen.width, screen_height: screen.height, viewport_width: innerWidth, viewport_height: innerHeight,
      scroll_x: Math.round(scrollX), scroll_y: Math.round(scrollY) };
    var vs = store.get(sessionStorage, "visit:" + KEY);
    if (vs) body.visit_session_id = vs;
    return api("POST", "/presence", body).then(function (r) {
      me = r;
      store.set(sessionStorage, "visit:" + KEY, r.visit_session_id);
      return r;
    });
  }

  // Events: activity signals, sampled, at most 50 a batch.
  function track(type, payload) {
    if (!tracking) return;
    queue.push({ event_type: type, occurred_at: new Date().toISOString(), payload: payload || {} });
    if (queue.length >= 50) flush();
  }
  function frame(type, payload) {
    // Co-browse frames go live over the socket; without it they wait in the batch.
    if (!send(type, payload)) queue.push({ event_type: "cobrowse." + FRAME_KIND[type], occurred_at: new Date().toISOString(), payload: payload });
  }
  var FRAME_KIND = { "monitoring.snapshot": "snapshot", "monitoring.incremental": "mutation", "cursor.move": "cursor",
    "touch.move": "touch", "scroll": "scroll", "viewport": "viewport", "page.navigate": "navigation", "click": "click" };
  function flush() {
    while (queue.length) {
      var events = queue.splice(0, 50);
      if (!send("event.batch", { events: events })) {
        api("POST", "/events", { public_key: KEY, visitor_id: me.visitor_id, visit_session_id: me.visit_session_id, events: events }).catch(function () {});
      }
    }
  }
  setInterval(flush, 5000);
  addEventListener("pagehide", flush);
  function throttle(fn, ms) { var last = 0; return function (x) { var n = Date.now(); if (n - last >= ms) { last = n; fn(x); } }; }

  // The launcher and the panel live in a Shadow DOM: the site's CSS stays out, ours in.
  function draw() {
    var host = document.createElement("div");
    host.setAttribute("data-site-chat", "");
    var root = host.attachShadow({ mode: "open" });
    var color = /^#[0-9a-fA-F]{3,8}$/.test(cfg.accent_color) ? cfg.accent_color : "#2563eb";
    var side = cfg.position === "left" ? "left" : "right";
    var style = document.createElement("style");
    style.textContent = ":host{all:initial}*{box-sizing:border-box;font:14px/1.4 system-ui,sans-serif}" +
      ".l{position:fixed;bottom:20px;" + side + ":20px;width:56px;height:56px;border-radius:50%;border:0;background:" + color + ";color:#fff;cursor:pointer;z-index:2147483646;display:flex;align-items:center;justify-content:center}.l svg{width:28px;height:28px}" +
      ".p{position:fixed;bottom:86px;" + side + ":20px;width:340px;max-width:calc(100vw - 40px);height:460px;max-height:calc(100vh - 110px);background:#fff;color:#111;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);display:none;flex-direction:column;overflow:hidden;z-index:2147483647}" +
      ".p.o{display:flex}.h{background:" + color + ";color:#fff;padding:12px}.h b{display:block;font-weight:600}.m{flex:1;overflow:auto;padding:10px}.q video{display:block;width:100%;max-height:180px;margin-top:8px}" +
      ".g{margin:6px 0;padding:8px 10px;border-radius:10px;max-width:85%;white-space:pre-wrap;word-wrap:break-word;background:#f1f5f9}" +
      ".g.visitor{margin-left:auto;background:" + color + ";color:#fff}.g.system{font-style:italic;background:none;color:#555}" +
      ".f{display:flex;border-top:1px solid #e5e7eb}.f textarea{flex:1;border:0;padding:10px;resize:none;height:48px}.f button,.q button{border:0;background:" + color + ";color:#fff;padding:0 14px;cursor:pointer}.f button{display:flex;align-items:center}.f svg{width:20px;height:20px}" +
      ".g small{display:block;text-align:right;font-size:11px;opacity:.85}.g[data-state=failed]{background:#b91c1c}.g small button{margin-left:6px;border:0;border-radius:4px;padding:1px 6px;font-size:11px;cursor:pointer}" +
      ".b{position:fixed;top:0;left:50%;transform:translateX(-50%);padding:6px 12px;background:#111;color:#fff;border-radius:0 0 8px 8px;z-index:2147483647}.b button{margin-left:8px;border:0;border-radius:4px;padding:2px 8px;cursor:pointer}" +
      ".f .a{background:none;color:#555;padding:0 8px}.g a{color:inherit}" +
      ".q{padding:10px;border-top:1px solid #e5e7eb;background:#fffbeb}.q div{margin-bottom:8px}.q button{padding:6px 12px;margin-right:6px;border-radius:6px}.q button+button{background:#6b7280}.t{height:16px;padding:0 10px;color:#666}";
    var launcher = el("button", "l");
    launcher.appendChild(icon("chat")); launcher.setAttribute("aria-label", cfg.title || "Chat");
    var panel = el("div", "p"), head = el("div", "h");
    head.appendChild(el("b", "", cfg.title)); head.appendChild(el("span", "", cfg.subtitle));
    ui.list = el("div", "m"); ui.typing = el("div", "t"); ui.prompt = el("div");
    var form = el("form", "f"), input = el("textarea"), button = el("button");
    var attach = el("button", "a"), file = el("input");
    button.appendChild(icon("send")); attach.appendChild(icon("attach"));
    input.setAttribute("aria-label", TEXT.message); button.type = "submit"; button.setAttribute("aria-label", TEXT.send);
    // Files: the visitor's go up once their conversation is open (the API opens it).
    attach.type = "button"; attach.setAttribute("aria-label", TEXT.attach); file.type = "file"; file.hidden = true;
    attach.onclick = function () { file.click(); };
    file.onchange = function () { if (file.files[0]) upload(file.files[0]); file.value = ""; };
    form.appendChild(input); form.appendChild(file); form.appendChild(attach); form.appendChild(button);
    panel.appendChild(head); panel.appendChild(ui.list); panel.appendChild(ui.typing); panel.appendChild(ui.prompt); panel.appendChild(form);
    root.appendChild(style); root.appendChild(launcher); root.appendChild(panel);
    launcher.onclick = function () { toggle(!panel.classList.contains("o")); };
    form.onsubmit = function (ev) {
      ev.preventDefault();
      var body = input.value.trim();
      if (!body) return;
      input.value = "";
      post({ body: body, row: el("div", "g visitor") });
    };
    input.onkeydown = function (ev) { if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); } };
    input.oninput = throttle(function () { send("chat.typing", { typing: true }); }, 2000);
    ui.panel = panel; ui.host = host; ui.root = root; state();
    document.body.appendChild(host);
    window.SiteChat = { open: function () { toggle(true); }, close: function () { toggle(false); }, call: function (video) {
      ask("Call an operator" + (video ? " (video)?" : "?"), "Call", "Cancel", function () {
        send("call.request", { media_kind: video ? "video" : "audio", privacy_consent_accepted: true });
      }, function () {});
    } };
  }
  function icon(name) {
    var ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg"), path = document.createElementNS(ns, "path");
    svg.setAttribute("viewBox", "0 0 24 24"); svg.setAttribute("aria-hidden", "true"); svg.setAttribute("focusable", "false");
    path.setAttribute("d", ICONS[name][0]);
    if (ICONS[name][1]) { path.setAttribute("fill", "none"); path.setAttribute("stroke", "currentColor"); path.setAttribute("stroke-width", "2"); path.setAttribute("stroke-linecap", "round"); }
    else path.setAttribute("fill", "currentColor");
    svg.appendChild(path);
    return svg;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = String(text);
    return e;
  }
  function toggle(open) {
    if (open && !ui.loaded) { ui.loaded = true; history(); }
    if (open === ui.panel.classList.contains("o")) return;
    ui.panel.classList.toggle("o", open);
    // Whether the chat is open is the operators' to see, sampled or not, and at once.
    queue.push({ event_type: open ? "chat.opened" : "chat.closed", occurred_at: new Date().toISOString() }); flush();
  }
  function upload(f) {
    var body = new FormData(); body.append("file", f);
    api("POST", "/conversations", { public_key: KEY, visit_session_id: me.visit_session_id, visitor_id: me.visitor_id }).then(function (c) {
      opened(c.conversation_id);
      return fetch(cfg.endpoint_base + "/conversations/" + c.conversation_id + "/attachments", { method: "POST", headers: { "X-Visitor-Token": me.visitor_token }, body: body });
    }).then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); }).then(addMessage).catch(function () {});
  }
  // A visitor's message shows where it stands: sending, sent (the server's ack or answer) or
  // failed, with Retry. The session's conversation opens with its first message.
  function post(msg) {
    var row = msg.row;
    row.textContent = "";
    row.setAttribute("data-author", "visitor");
    row.appendChild(el("span", "", msg.body));
    mark(msg, "sending");
    if (!row.parentNode) { ui.list.appendChild(row); ui.list.scrollTop = ui.list.scrollHeight; }
    var eid = send("chat.message", { body: msg.body });
    if (eid) { pending[eid] = msg; return; }
    api("POST", "/messages", { body: msg.body, public_key: KEY, visit_session_id: me.visit_session_id, visitor_id: me.visitor_id })
      .then(function (m) { delivered(msg, m); }, function () { failed(msg); });
  }
  function mark(msg, st) {
    msg.row.setAttribute("data-state", st);
    if (msg.st) msg.st.remove();
    msg.st = msg.row.appendChild(el("small", "", TEXT[st]));
  }
  function delivered(msg, m) {
    // The socket may pass the message back before its ack: the row already drawn stays.
    if (m.message_id && shown[m.message_id]) shown[m.message_id].remove();
    shown[m.message_id] = msg.row;
    opened(m.conversation_id);
    mark(msg, "sent");
  }
  function failed(msg) {
    mark(msg, "failed");
    var retry = el("button", "", TEXT.retry);
    retry.type = "button";
    retry.onclick = function () { post(msg); };
    msg.st.appendChild(retry);
  }
  // The widget asks for the messages only of a conversation it has seen open: the id
  // presence reserves for the next one is unknown to the server until its first message.
  function opened(conversation) {
    if (!conversation) return;
    me.conversation_id = conversation;
    store.set(localStorage, "conv:" + KEY, conversation);
  }
  function history() {
    if (store.get(localStorage, "conv:" + KEY) !== me.conversation_id) return;
    api("GET", "/conversations/" + me.conversation_id + "/messages?limit=100").then(function (r) {
      (r.items || []).forEach(addMessage);
    }).catch(function () {});
  }
  function addMessage(m) {
    if (!m || !m.message_id || shown[m.message_id]) return;
    opened(m.conversation_id);
    var files = m.attachments || [], row = el("div", "g " + (m.author_kind || ""), files.length ? null : m.body);
    row.setAttribute("data-author", m.author_kind || "");
    shown[m.message_id] = row;
    files.forEach(function (a) {
      // The download answers as an attachment, so following the link keeps the page.
      var link = el("a", "", a.file_name);
      if (/^https?:/.test(a.download_url)) link.href = a.download_url;
      row.appendChild(link);
    });
    if (m.author_kind === "operator" && m.author_name) row.title = m.author_name;
    ui.list.appendChild(row);
    ui.list.scrollTop = ui.list.scrollHeight;
    if (m.author_kind !== "visitor") { ui.panel.classList.add("o"); ui.typing.textContent = ""; }
  }

  // A question with two answers, in the panel: invitations and consents.
  function ask(text, yes, no, onYes, onNo) {
    toggle(true);
    ui.prompt.textContent = "";
    var q = el("div", "q"), by = el("button", "", yes), bn = el("button", "", no);
    q.appendChild(el("div", "", text)); q.appendChild(by); q.appendChild(bn);
    ui.prompt.appendChild(q);
    by.onclick = function () { ui.prompt.textContent = ""; onYes(); };
    bn.onclick = function () { ui.prompt.textContent = ""; onNo(); };
  }
  function invite(p, e) {
    send("invite.seen", {}, { visit_session_id: me.visit_session_id });
    var text = p.message || p.invite_message || "Can we help you?";
    if (p.force || p.invite_force) { toggle(true); addMessage({ message_id: "invite-" + e.id, author_kind: "system", body: text }); send("invite.accepted", {}); return; }
    ask(text, "Chat", "No, thanks", function () { send("invite.accepted", {}); }, function () { send("invite.declined", {}); });
  }

  // Monitoring: only after the visitor consents.
  function askMonitoring() {
    ask("An operator asks to see this page to help you. Your typed values stay hidden.", "Allow", "Decline",
      function () { send("consent.accepted", { subject: "monitoring" }); },
      function () { send("consent.declined", { subject: "monitoring" }); });
  }
  // The recorder (rrweb, /site-chat/cobrowse.js) loads only now; it masks in this browser
  // and hands each event with its envelope type. A bar says the page is seen, with Stop.
  function startMonitoring() {
    if (monitor) return;
    var m = monitor = {}, s;
    function go() { if (monitor === m) m.rec = window.SiteChatCobrowse.start(frame); }
    if (window.SiteChatCobrowse) go();
    else { s = document.createElement("script"); s.src = BASE + "/site-chat/cobrowse.js"; s.onload = go; s.onerror = stopMonitoring; document.head.appendChild(s); }
    if (!ui.root) return;
    var seen = ui.seen = el("div", "b", "An operator sees this page. "), stop = el("button", "", "Stop");
    stop.onclick = function () { send("consent.declined", { subject: "monitoring" }); stopMonitoring(); };
    seen.appendChild(stop); ui.root.appendChild(seen);
  }
  function stopMonitoring() { if (monitor && monitor.rec) monitor.rec.stop(); monitor = null; if (ui.seen) ui.seen.remove(); }

  // Calls, after the visitor's consent (recording's: ticked); the operator offers the WebRTC media.
  function offerCall(p, e) {
    var id = e.call_session_id, c = { id: id, video: p.media_kind === "video" }, box = el("input");
    if (call || !id || p.status !== "offered" && p.status !== "ringing") return;
    call = c;
    if (p.requested_by === "visitor") return bar(c, "Calling\u2026");
    ask(c.video ? "An operator is calling you (video)." : "An operator is calling you.", "Answer", "Decline", function () {
      bar(c, "Connecting\u2026");
      send("call.accept", { privacy_consent_accepted: true, recording_consent_accepted: box.checked }, { call_session_id: id });
    }, function () { call = null; send("call.reject", {}, { call_session_id: id }); });
    c.q = ui.prompt.firstChild;
    if (p.recording_enabled) { box.type = "checkbox"; var l = el("label", "", " Allow recording"); l.prepend(box); c.q.insertBefore(l, c.q.children[1]); }
  }
  function bar(c, text) {
    var b = c.b = el("div", "q"), m = el("button", "", "Mute"), x = el("button", "", "End");
    m.onclick = function () { c.mute = !c.mute; m.textContent = c.mute ? "Unmute" : "Mute"; mute(c); };
    x.onclick = function () { send("call.end", {}, { call_session_id: c.id }); endCall(c.id); };
    b.append(c.t = el("div", "", text), m, x); ui.panel.insertBefore(b, ui.prompt);
  }
  function mute(c) { if (c.s) c.s.getAudioTracks().forEach(function (t) { t.enabled = !c.mute; }); }
  function peer(c) {
    return c.p = c.p || api("GET", "/voice-config").catch(function () { return {}; }).then(function (vc) {
      var pc = c.pc = new RTCPeerConnection({ iceServers: vc.ice_servers || [] });
      pc.onicecandidate = function (ev) { if (ev.candidate) send("webrtc.ice", { candidate: ev.candidate.toJSON() }, { call_session_id: c.id }); };
      pc.ontrack = function (ev) {
        if (!c.m) { c.m = el(c.video ? "video" : "audio"); c.m.autoplay = c.m.playsInline = true; c.b.appendChild(c.m); }
        c.m.srcObject = ev.streams[0];
      };
      // "failed" is final (a tab that crashed or lost its network answers no more), where
      // "disconnected" may come back.
      pc.onconnectionstatechange = function () {
        if (pc.connectionState === "failed") return mediaFailed(c);
        c.t.textContent = pc.connectionState === "connected" ? "In call" : "Connecting\u2026";
      };
      return navigator.mediaDevices.getUserMedia({ audio: true, video: c.video }).then(function (s) {
        c.s = s; mute(c); s.getTracks().forEach(function (t) { pc.addTrack(t, s); }); return pc;
      });
    });
  }
  function signal(e) {
    var c = call, p = e.payload || {};
    if (!c || !c.b || e.call_session_id !== c.id) return;
    c.w = (c.w || peer(c)).then(function (pc) {
      if (e.type === "webrtc.ice") return pc.addIceCandidate(p.candidate).catch(function () {}).then(function () { return pc; });
      return pc.setRemoteDescription({ type: "offer", sdp: p.sdp }).then(function () { return pc.createAnswer(); })
        .then(function (a) { return pc.setLocalDescription(a); }).then(function () {
          send("webrtc.answer", { sdp: pc.localDescription.sdp }, { call_session_id: c.id }); return pc;
        });
    });
    c.w.catch(function () { mediaFailed(c); });
  }
  function mediaFailed(c) {
    if (call !== c) return;
    send("call.end", { end_reason: "media_failed" }, { call_session_id: c.id });
    endCall(c.id);
  }
  function endCall(id) {
    var c = call;
    if (!c || id !== c.id) return;
    if (c.pc) c.pc.close();
    if (c.s) c.s.getTracks().forEach(function (t) { t.stop(); });
    if (c.q) c.q.remove();
    if (c.b) { c.b.remove(); addMessage({ message_id: "call-" + id, author_kind: "system", body: "Call ended" }); }
    call = null;
  }

  fetch(BASE + "/api/v1/public/site-chat/widgets/" + encodeURIComponent(KEY) + "/config").then(function (r) {
    if (!r.ok) throw new Error(r.status); // a paused or archived widget shows nothing
    return r.json();
  }).then(function (c) {
    cfg = c;
    cfg.endpoint_base = (c.endpoint_base || BASE + "/api/v1/public/site-chat").replace(/\/$/, "");
    tracking = Math.random() < (typeof c.sampling_rate === "number" ? c.sampling_rate : 1);
    return presence();
  }).then(function () {
    if (document.body) draw(); else addEventListener("DOMContentLoaded", draw);
    connect();
    track("page.view", { url: location.href, title: document.title });
    if (cfg.heavy_tracking_default) {
      addEventListener("mousemove", throttle(function (ev) { track("activity.cursor", { x: ev.clientX, y: ev.clientY }); }, 1000), { passive: true });
      addEventListener("scroll", throttle(function () { track("activity.scroll", { x: Math.round(scrollX), y: Math.round(scrollY) }); }, 1000), { passive: true });
    }
  }).catch(function () {});
})();
