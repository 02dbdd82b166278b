// A hex view of a whole file that renders only the rows in sight (files of many megabytes stay fast).
// Clicking a byte calls onByte(offset); select(start, end) lights a byte range up and scrolls to it.
"use strict";

class HexView {
  constructor(pane, bytes, onByte) {
    this.pane = pane;
    this.bytes = bytes;
    this.onByte = onByte;
    this.rowHeight = 18;
    this.perRow = 16;
    this.sel = [0, 0];
    this.errorAt = null;
    this.box = document.createElement("div");
    this.box.className = "hex";
    this.rowCount = Math.max(1, Math.ceil(bytes.length / this.perRow));
    this.box.style.height = this.rowCount * this.rowHeight + "px";
    this.rows = document.createElement("div");
    this.rows.className = "rows";
    this.box.appendChild(this.rows);
    pane.appendChild(this.box);
    pane.addEventListener("scroll", () => this.render());
    this.box.addEventListener("click", (ev) => {
      const t = ev.target;
      if (t.dataset && t.dataset.off !== undefined) this.onByte(Number(t.dataset.off));
    });
    this.render();
  }

  hex2(b) { return (b < 16 ? "0" : "") + b.toString(16); }

  render() {
    const top = this.pane.scrollTop - this.box.offsetTop;
    const first = Math.max(0, Math.floor(top / this.rowHeight) - 5);
    const visible = Math.ceil(this.pane.clientHeight / this.rowHeight) + 10;
    const last = Math.min(this.rowCount, first + visible);
    this.rows.style.top = first * this.rowHeight + "px";
    const html = [];
    const [s, e] = this.sel;
    for (let r = first; r < last; r++) {
      const base = r * this.perRow;
      const parts = [`<span class="off">${base.toString(16).padStart(8, "0")}</span>  `];
      const text = [];
      for (let i = 0; i < this.perRow; i++) {
        const off = base + i;
        if (off >= this.bytes.length) { parts.push("   "); continue; }
        const b = this.bytes[off];
        let cls = "b";
        if (off >= s && off < e) cls += " in";
        if (off === this.errorAt) cls += " err";
        parts.push(`<span class="${cls}" data-off="${off}">${this.hex2(b)}</span>` + (i === 7 ? "  " : " "));
        const ch = b >= 32 && b < 127 ? String.fromCharCode(b) : ".";
        text.push(`<span class="${cls}" data-off="${off}">${ch === "<" ? "&lt;" : ch === "&" ? "&amp;" : ch}</span>`);
      }
      html.push(`<div class="row">${parts.join("")} ${text.join("")}</div>`);
    }
    this.rows.innerHTML = html.join("");
  }

  select(start, end, scroll = true) {
    this.sel = [start, end];
    if (scroll && end > start) {
      const y = Math.floor(start / this.perRow) * this.rowHeight;
      const view = this.pane.scrollTop;
      if (y < view || y > view + this.pane.clientHeight - 2 * this.rowHeight) {
        this.pane.scrollTop = Math.max(0, y - 3 * this.rowHeight);
      }
    }
    this.render();
  }

  markError(offset) {
    this.errorAt = offset;
    this.select(offset, offset + 1);
  }
}

window.HexView = HexView;
