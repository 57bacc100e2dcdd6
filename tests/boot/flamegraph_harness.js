// SPDX-License-Identifier: MIT
// Runs a flame graph picture's script (src/core/flamegraph_script.c) under node against the
// picture's own boxes, in a small stand-in for the browser's DOM, and prints what the boxes
// look like after each step. Used by flamegraph_check.py, which extracts the script and the
// boxes from the SVG and checks the printed state.
//
// Usage: node flamegraph_harness.js PICTURE.json
//   PICTURE.json: {"script": "...", "left": L, "width": W,
//                  "boxes": [{"name", "x", "width", "y", "fill"}, ...],
//                  "steps": [["click", BOX_INDEX] | ["unzoom"] | ["search", TERM] |
//                            ["key", KEY, CTRL], ...]}
//   Prints one JSON array: after each step, {"boxes": [{"x", "width", "display", "opacity",
//   "fill", "text"}, ...], "matched": TEXT, "unzoom_opacity": O, "alerts": N}.
'use strict';
const fs = require('fs');
const vm = require('vm');

const pic = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

function El(tag, attrs) {
    this.tagName = tag;
    this.attrs = {};
    for (const k in attrs || {})
        this.attrs[k] = String(attrs[k]);
    this.children = [];
    this.style = {};
    this.textContent = '';
    this.listeners = {};
}
El.prototype.getAttribute = function (k) { return k in this.attrs ? this.attrs[k] : null; };
El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
El.prototype.getElementsByTagName = function (t) {
    return this.children.filter((c) => c.tagName === t);
};
El.prototype.addEventListener = function (ev, f) { this.listeners[ev] = f; };

const root = new El('svg', { 'data-left': pic.left, 'data-width': pic.width });
const groups = pic.boxes.map((b) => {
    const g = new El('g', { class: 'f', 'data-name': b.name });
    g.children.push(new El('rect', { x: b.x, width: b.width, y: b.y, fill: b.fill }));
    g.children.push(new El('text', { x: b.x + 3 }));
    return g;
});
const ids = {};
for (const id of ['fg-unzoom', 'fg-search', 'fg-matched'])
    ids[id] = new El('text', { id });
let answer = '';
let alerts = 0;
const win = {
    listeners: {},
    addEventListener(ev, f) { this.listeners[ev] = f; },
    prompt() { return answer; },
    alert() { alerts++; },
};
const doc = {
    documentElement: root,
    getElementsByTagName(t) { return t === 'g' ? groups : []; },
    getElementById(id) { return ids[id] || null; },
};
vm.runInNewContext(pic.script, { window: win, document: doc, Math, RegExp });
win.listeners.load();

const out = [];
for (const step of pic.steps) {
    if (step[0] === 'click') {
        const g = groups[step[1]];
        g.listeners.click.call(g);
    } else if (step[0] === 'unzoom') {
        ids['fg-unzoom'].listeners.click.call(ids['fg-unzoom']);
    } else if (step[0] === 'search') {
        answer = step[1];
        ids['fg-search'].listeners.click.call(ids['fg-search']);
    } else if (step[0] === 'key') {
        win.listeners.keydown({ key: step[1], ctrlKey: !!step[2], metaKey: false,
                                preventDefault() {} });
    }
    out.push({
        boxes: groups.map((g) => ({
            x: +g.children[0].attrs.x,
            width: +g.children[0].attrs.width,
            display: g.style.display || '',
            opacity: g.style.opacity || '',
            fill: g.children[0].attrs.fill,
            text: g.children[1].textContent,
        })),
        matched: ids['fg-matched'].textContent,
        unzoom_opacity: ids['fg-unzoom'].style.opacity || '',
        alerts,
    });
}
process.stdout.write(JSON.stringify(out));
