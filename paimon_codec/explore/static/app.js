// The explorer's entry: routes (#dir=, #file=, #table=), the API, and loading the generated parsers.
"use strict";

const App = {
  root: null,
  parsersLoaded: null,

  async api(name, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== "") q.set(k, v);
    const r = await fetch(`/api/${name}?${q}`);
    if (name === "bytes") {
      if (!r.ok) throw new Error((await r.json()).error.message);
      return new Uint8Array(await r.arrayBuffer());
    }
    const body = await r.json();
    if (!r.ok) throw new Error(body.error && body.error.message || r.statusText);
    return body;
  },

  // every generated parser as a <script> (the runtime and its fixes are loaded by index.html first): each
  // registers itself on window (UMD), imports resolve lazily
  loadParsers() {
    if (!this.parsersLoaded) {
      this.parsersLoaded = fetch("/parsers/index.json").then((r) => r.json()).then((names) => Promise.all(
        names.filter((n) => !n.startsWith("KaitaiStream")).map((n) => new Promise((resolve, reject) => {
          const s = document.createElement("script");
          s.src = `/parsers/${n}`;
          s.onload = resolve;
          s.onerror = () => reject(new Error(`cannot load parser ${n}`));
          document.head.appendChild(s);
        }))));
    }
    return this.parsersLoaded;
  },

  showError(message) {
    const box = document.getElementById("error");
    box.hidden = !message;
    box.textContent = message || "";
  },

  setStatus(text) { document.getElementById("status").textContent = text; },

  crumbs(rel) {
    const el = document.getElementById("crumbs");
    el.innerHTML = "";
    const parts = (rel || "").split("/").filter(Boolean);
    let acc = "";
    parts.forEach((p, i) => {
      acc += (acc ? "/" : "") + p;
      const a = document.createElement("a");
      a.href = i === parts.length - 1 ? location.hash : `#dir=${encodeURIComponent(acc)}`;
      a.textContent = p;
      el.append(" / ", a);
    });
  },

  params() { return Object.fromEntries(new URLSearchParams(location.hash.slice(1))); },

  async route() {
    const p = this.params();
    this.showError("");
    document.body.dataset.state = "loading";
    const main = document.getElementById("main");
    main.innerHTML = "";
    const old = document.getElementById("explorer-result");
    if (old) old.remove();
    try {
      if (p.file !== undefined) {
        this.crumbs(p.file);
        await Views.file(main, p);
      } else if (p.table !== undefined) {
        this.crumbs(p.table);
        await Views.table(main, p);
      } else {
        this.crumbs(p.dir || "");
        await Views.dir(main, p.dir || "");
      }
      if (document.body.dataset.state === "loading") document.body.dataset.state = "ready";
    } catch (e) {
      const message = String(e && e.message || e);
      this.showError(message);
      testHook({ view: "error", error: { message } });
      document.body.dataset.state = "error";
    }
  },

  async start() {
    this.root = await this.api("root");
    if (!location.hash) {
      location.hash = this.root.start ? `file=${encodeURIComponent(this.root.start)}`
        : this.root.is_table ? "table=" : "dir=";
    }
    window.addEventListener("hashchange", () => this.route());
    await this.route();
  },
};

window.App = App;
App.start();
