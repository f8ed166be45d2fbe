// gltrace view: the page. Plain JavaScript, no build step, no framework:
// the page is a handful of panels over a JSON API (view/view_routes.c), and
// the two hard parts (a virtual list of millions of rows, a canvas
// timeline) are small enough by hand; a framework would add a build or a
// vendored bundle for no gain. Served by `gltrace view`, or opened from
// disk in a folder written by `gltrace view --export` (data as script
// chunks: no fetch of local files).
'use strict';

const EXPORT = window.GT_EXPORT_INFO || null; // set by data/export.js
const ROW = 20, PAGE = 100;
const $ = (id) => document.getElementById(id);
const S = { info: null, frames: new Map(), framePages: new Map(), frame: 0, call: null, tab: 'calls',
            filter: '', filterId: null, find: '', findId: null, total: 0, pages: new Map(), pending: new Map(),
            detail: null, matches: new Set() };

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function ns(v) {
  if (v === undefined || v === null) return '';
  if (v >= 1e9) return (v / 1e9).toFixed(3) + ' s';
  if (v >= 1e6) return (v / 1e6).toFixed(3) + ' ms';
  if (v >= 1e3) return (v / 1e3).toFixed(1) + ' us';
  return v + ' ns';
}
function status(msg) { $('status').textContent = msg || ''; }

// ------------------------------------------------------------ data access

// Export: data/KEY.js calls gtData(KEY, json).
const chunkWaiters = new Map(), chunks = new Map();
window.gtData = (key, data) => {
  chunks.set(key, data);
  const w = chunkWaiters.get(key);
  if (w) { chunkWaiters.delete(key); w.forEach((f) => f(data)); }
};
function chunk(key) {
  if (chunks.has(key)) return Promise.resolve(chunks.get(key));
  return new Promise((resolve, reject) => {
    if (chunkWaiters.has(key)) { chunkWaiters.get(key).push(resolve); return; }
    chunkWaiters.set(key, [resolve]);
    const s = document.createElement('script');
    s.src = 'data/' + key + '.js';
    s.onerror = () => { chunkWaiters.delete(key); reject(new Error('not in this export: ' + key)); };
    document.head.appendChild(s);
  });
}

async function api(path, params, signal) {
  params = params || {};
  if (EXPORT) return exportApi(path, params);
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x)); else if (v !== undefined && v !== null) q.append(k, v);
  }
  const r = await fetch('/api/' + path + '?' + q, { signal, credentials: 'same-origin' });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
  return j;
}

async function exportApi(path, p) {
  const E = EXPORT;
  if (path === 'info') return chunk('info');
  if (path === 'frames') {
    const all = await chunk('frames');
    return { total: all.total, from: p.from, frames: all.frames.filter((f) => f.n >= p.from && f.n < p.from + p.count) };
  }
  if (path === 'calls') {
    if (p.find !== undefined) return exportFiltered(p);
    const first = Math.floor(p.from / E.page), last = Math.floor((p.from + p.count - 1) / E.page);
    const out = [];
    let total = 0;
    for (let k = first; k <= last; k++) {
      let c;
      try { c = await chunk('calls-' + k); } catch (e) { break; }
      total = c.total;
      c.calls.forEach((x, i) => { const pos = c.from + i; if (pos >= p.from && pos < p.from + p.count) out.push(x); });
    }
    if (!total) total = (await chunk('calls-0')).total;
    return { total, from: p.from, calls: out };
  }
  if (path === 'call') {
    const c = await chunk('call-' + Math.floor(p.n / E.detail));
    if (!c[p.n]) throw new Error('call ' + p.n + ' is not in this export');
    return c[p.n];
  }
  if (path === 'stats') return chunk(p.frame === undefined ? 'stats-all' : 'stats-' + p.frame);
  if (path === 'timeline') return chunk('timeline-' + p.f0);
  if (path === 'locate') {
    const all = await chunk('frames');
    const f = all.frames.find((x) => p.n >= x.first && p.n <= x.last);
    if (!f) throw new Error('call ' + p.n + ' is not in this export');
    return { pos: f.pos - all.frames[0].pos + (p.n - f.first), frame: f.n };
  }
  if (path === 'report') return { status: 'none' };
  throw new Error('not available in an exported folder: ' + path);
}

// Filter in an export: the patterns tried on every exported call's text.
let exportAll = null;
async function exportCalls() {
  if (exportAll) return exportAll;
  const c0 = await chunk('calls-0');
  const list = [];
  for (let k = 0; k * EXPORT.page < c0.total; k++) list.push(...(await chunk('calls-' + k)).calls);
  exportAll = list;
  return list;
}
function matcher(text) {
  const res = text.split('&&').map((s) => s.trim()).filter((s) => s).map((s) => new RegExp(s));
  return (line) => res.every((r) => r.test(line));
}
async function exportFiltered(p) {
  const all = await exportCalls();
  const m = matcher(S.filter);
  const hits = all.filter((c) => m(c.text.replace(/^\d+ /, '')));
  return { total: hits.length, from: p.from, calls: hits.slice(p.from, p.from + p.count) };
}

function imageUrl(seq, thumb) {
  if (EXPORT) return 'img/' + (thumb ? 'thumb' : 'image') + '-' + seq + '.png';
  return '/api/image?n=' + seq + (thumb ? '&thumb=1' : '');
}

// ------------------------------------------------------------ deep links

function writeHash() {
  const h = new URLSearchParams();
  h.set('frame', S.frame);
  if (S.call !== null) h.set('call', S.call);
  if (S.tab !== 'calls') h.set('tab', S.tab);
  if (S.filter) h.set('filter', S.filter);
  if (S.find) h.set('find', S.find);
  history.replaceState(null, '', '#' + h);
}
function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  return { frame: h.get('frame'), call: h.get('call'), tab: h.get('tab'), filter: h.get('filter') || '',
           find: h.get('find') || '' };
}

// ------------------------------------------------------------ film strip

const CELL = 120;
async function framePage(k) {
  if (S.framePages.has(k)) return S.framePages.get(k);
  const p = api('frames', { from: k * 500, count: 500 }).then((j) => {
    j.frames.forEach((f) => S.frames.set(f.n, f));
    return j;
  });
  S.framePages.set(k, p);
  return p;
}
async function frameInfo(n) {
  if (!S.frames.has(n)) await framePage(Math.floor(n / 500));
  return S.frames.get(n);
}
function frameList() { return EXPORT ? [EXPORT.f0, EXPORT.f1] : [0, S.info.frames - 1]; }

const stripCells = new Map();
async function drawStrip() {
  const strip = $('strip'), inner = $('strip-inner');
  const [f0, f1] = frameList();
  inner.style.width = ((f1 - f0 + 1) * CELL) + 'px';
  const a = Math.max(f0, f0 + Math.floor(strip.scrollLeft / CELL) - 2);
  const b = Math.min(f1, f0 + Math.ceil((strip.scrollLeft + strip.clientWidth) / CELL) + 2);
  for (const [n, cell] of stripCells) {
    if (n < a || n > b) {
      const img = cell.querySelector('img');
      if (img) img.src = ''; // cancels a thumbnail still loading
      cell.remove();
      stripCells.delete(n);
    }
  }
  for (let n = a; n <= b; n++) {
    if (stripCells.has(n)) continue;
    const cell = el('div', 'frame' + (n === S.frame ? ' sel' : ''));
    cell.style.left = ((n - f0) * CELL) + 'px';
    cell.dataset.frame = n;
    stripCells.set(n, cell);
    inner.appendChild(cell);
    frameInfo(n).then((f) => {
      if (!f || !stripCells.has(n)) return;
      if (f.thumb !== undefined) {
        const img = el('img');
        img.alt = 'frame ' + n;
        img.src = imageUrl(f.thumb, true);
        cell.appendChild(img);
      } else cell.appendChild(el('div', 'hint', '(no snapshot)'));
      const label = el('div', 'label', 'frame ' + n + ' · ' + f.draws + ' draws');
      label.title = f.calls + ' calls, ' + f.draws + ' draws, ' + ns(f.t1 - f.t0);
      cell.appendChild(label);
    });
    cell.onclick = () => selectFrame(n, true);
  }
}
function markStrip() {
  for (const [n, c] of stripCells) c.classList.toggle('sel', n === S.frame);
}
function scrollStripTo(n) {
  const strip = $('strip'), [f0] = frameList();
  const x = (n - f0) * CELL;
  if (x < strip.scrollLeft || x + CELL > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = x - strip.clientWidth / 2;
  drawStrip();
}

async function selectFrame(n, jump) {
  S.frame = n;
  markStrip();
  scrollStripTo(n);
  writeHash();
  const f = await frameInfo(n);
  if (jump && f) {
    if (!filtered()) await scrollToSeq(f.first);
    await selectCall(f.first);
  }
  refreshTab();
}

// ------------------------------------------------------------ call list

function listTotal() { return S.total; }
const MAXH = 8e6; // browsers cap an element's height: rows are mapped onto this many pixels
function listHeight() { return Math.min(listTotal() * ROW, MAXH); }
function firstVisible() {
  const l = $('list'), h = listHeight();
  if (listTotal() * ROW <= MAXH) return Math.floor(l.scrollTop / ROW);
  const rows = Math.ceil(l.clientHeight / ROW);
  return Math.round(l.scrollTop / Math.max(1, h - l.clientHeight) * Math.max(0, listTotal() - rows));
}
function scrollToPos(pos) {
  const l = $('list'), h = listHeight();
  const rows = Math.ceil(l.clientHeight / ROW);
  const top = Math.max(0, pos - Math.floor(rows / 2));
  if (listTotal() * ROW <= MAXH) l.scrollTop = top * ROW;
  else l.scrollTop = top / Math.max(1, listTotal() - rows) * (h - l.clientHeight);
  drawList();
}
function filtered() { return S.filterId !== null || !!(EXPORT && S.filter); }
function pageKey(k) { return (S.filterId !== null ? 'f' + S.filterId : filtered() ? 'x' + S.filter : 'a') + ':' + k; }
function loadPage(k) {
  const key = pageKey(k);
  if (S.pages.has(key)) return S.pages.get(key);
  const ctl = new AbortController();
  const params = { from: k * PAGE, count: PAGE };
  if (filtered()) params.find = EXPORT ? 'export' : S.filterId;
  const p = api('calls', params, ctl.signal).then((j) => {
    S.pending.delete(key);
    return j; // the length of a filtered list comes from the search's status, not from a page
  }, (e) => { S.pending.delete(key); S.pages.delete(key); throw e; });
  S.pages.set(key, p);
  S.pending.set(key, ctl);
  if (S.pages.size > 60) { // forget pages far away
    const old = S.pages.keys().next().value;
    S.pages.delete(old);
  }
  return p;
}
let drawSerial = 0;
async function drawList() {
  const serial = ++drawSerial;
  const l = $('list');
  $('list-space').style.height = listHeight() + 'px';
  const first = firstVisible(), rows = Math.ceil(l.clientHeight / ROW) + 1;
  const pa = Math.floor(first / PAGE), pb = Math.floor(Math.min(listTotal() - 1, first + rows) / PAGE);
  const wanted = new Set();
  for (let k = pa; k <= pb; k++) wanted.add(pageKey(k));
  for (const [key, ctl] of S.pending) if (!wanted.has(key)) { ctl.abort(); S.pages.delete(key); S.pending.delete(key); }
  const got = [];
  for (let k = pa; k <= pb && k * PAGE < listTotal(); k++) {
    try { got.push(await loadPage(k)); } catch (e) {
      if (e.name === 'AbortError') return;
      // the server keeps a few searches: a filter whose search it let go is run again
      if (/^no search/.test(e.message) && S.filterId !== null && !S.refiltering) {
        S.refiltering = true;
        applyFilter(S.filter).finally(() => { S.refiltering = false; });
      } else status(e.message);
      return;
    }
  }
  if (serial !== drawSerial) return;
  $('list-space').style.height = listHeight() + 'px';
  const box = $('list-rows');
  box.textContent = '';
  box.style.top = (l.scrollTop) + 'px';
  const byPos = new Map();
  got.forEach((pg) => pg.calls.forEach((c, i) => byPos.set(pg.from + i, c)));
  for (let i = first; i < first + rows && i < listTotal(); i++) {
    const c = byPos.get(i);
    if (!c) continue;
    const r = el('div', 'row');
    if (c.draw) r.classList.add('draw');
    if (c.error) r.classList.add('error');
    if (c.snapshot) r.classList.add('snap');
    if (c.swap) r.classList.add('swap');
    if (c.seq === S.call) r.classList.add('sel');
    if (S.matches.has(c.seq)) r.classList.add('match');
    if (c.depth) r.classList.add('d' + Math.min(5, c.depth));
    r.dataset.seq = c.seq;
    r.appendChild(el('span', 'seq', c.seq));
    r.appendChild(el('span', 'dur', ns(c.dur)));
    r.appendChild(document.createTextNode(c.text.replace(/^\d+ /, '') + (c.error ? '  -> ' + c.error : '')));
    r.onclick = () => selectCall(c.seq);
    box.appendChild(r);
  }
}

async function locate(seq) {
  if (EXPORT) return api('locate', { n: seq });
  return api('locate', { n: seq });
}
async function scrollToSeq(seq) {
  if (filtered()) { drawList(); return; }
  const at = await locate(seq);
  scrollToPos(at.pos);
}

// ------------------------------------------------------------ call detail

async function selectCall(seq) {
  S.call = seq;
  writeHash();
  document.querySelectorAll('.row.sel').forEach((r) => r.classList.remove('sel'));
  document.querySelectorAll('.row[data-seq="' + seq + '"]').forEach((r) => r.classList.add('sel'));
  let d;
  try { d = await api('call', { n: seq }); } catch (e) { status(e.message); return; }
  if (S.call !== seq) return;
  S.detail = d;
  if (d.frame !== S.frame) { S.frame = d.frame; markStrip(); scrollStripTo(d.frame); writeHash(); }
  showDetail(d);
  $('state').textContent = '';
  if (!EXPORT) {
    const b = el('button', '', 'State at this call');
    b.id = 'state-btn';
    b.onclick = () => loadState(d);
    $('state').appendChild(b);
  }
}

function typedView(hex, kind) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  const dv = new DataView(bytes.buffer), out = [];
  const w = { u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4, vec2: 8, vec3: 12, vec4: 16 }[kind];
  for (let o = 0; o + w <= bytes.length && out.length < 4096; o += w) {
    if (kind === 'u8') out.push(dv.getUint8(o));
    else if (kind === 'i16') out.push(dv.getInt16(o, true));
    else if (kind === 'u16') out.push(dv.getUint16(o, true));
    else if (kind === 'i32') out.push(dv.getInt32(o, true));
    else if (kind === 'u32') out.push(dv.getUint32(o, true));
    else if (kind === 'f32') out.push(+dv.getFloat32(o, true).toPrecision(7));
    else {
      const n = w / 4, v = [];
      for (let k = 0; k < n; k++) v.push(+dv.getFloat32(o + 4 * k, true).toPrecision(6));
      out.push('(' + v.join(', ') + ')');
    }
  }
  return out.join(kind.startsWith('vec') ? '\n' : ', ');
}
function hexDump(hex) {
  const lines = [];
  for (let o = 0; o < hex.length && lines.length < 256; o += 32) {
    const h = hex.substr(o, 32).replace(/(..)/g, '$1 ');
    lines.push((o / 2).toString(16).padStart(6, '0') + '  ' + h);
  }
  return lines.join('\n');
}

function valueNode(v) {
  if (v && typeof v === 'object' && !Array.isArray(v) && v.ptr !== undefined) {
    const box = el('div');
    box.appendChild(el('span', 'kv', v.ptr + ' -> '));
    box.appendChild(valueNode(v.data));
    return box;
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && v.hex !== undefined) {
    const box = el('div');
    const sel = el('select');
    ['hex', 'u8', 'i16', 'u16', 'i32', 'u32', 'f32', 'vec2', 'vec3', 'vec4'].forEach((k) => {
      const o = el('option', '', k); o.value = k; sel.appendChild(o);
    });
    const pre = el('pre', 'src');
    const show = () => { pre.textContent = sel.value === 'hex' ? hexDump(v.hex) : typedView(v.hex, sel.value); };
    sel.onchange = show;
    box.appendChild(el('span', 'kv', v.bytes + ' bytes as '));
    box.appendChild(sel);
    box.appendChild(pre);
    show();
    return box;
  }
  if (typeof v === 'string' && v.includes('\n')) return el('pre', 'src', v);
  return el('span', 'kv', JSON.stringify(v));
}

function showDetail(d) {
  const box = $('detail');
  box.textContent = '';
  const h = el('h3', '', d.seq + ' ' + d.fn);
  box.appendChild(h);
  const t = el('table');
  const add = (k, v) => {
    const tr = el('tr');
    tr.appendChild(el('th', '', k));
    const td = el('td');
    td.appendChild(v instanceof Node ? v : el('span', 'kv', String(v)));
    tr.appendChild(td);
    t.appendChild(tr);
  };
  const rec = d.record || {};
  if (rec.args) for (const [k, v] of Object.entries(rec.args)) add(k, valueNode(v));
  if (rec.ret !== undefined) add('return', valueNode(rec.ret));
  if (d.error) add('GL error', el('span', 'fail', d.error));
  add('frame', d.frame);
  add('context', d.ctx === 65535 ? 'none' : d.ctx);
  add('thread', d.tid);
  add('wall time', ns(d.dur));
  if (d.cpu !== undefined) add('thread time', ns(d.cpu));
  if (rec.fb) add('snapshot', JSON.stringify(rec.fb));
  if (rec.metadata) add('metadata', el('pre', 'src', JSON.stringify(rec.metadata, null, 1)));
  if (rec.marker) add('marker', rec.marker);
  box.appendChild(t);
  const imgs = d.snapshot ? [d.seq] : (d.images || []);
  if (imgs.length) showImages(imgs.map((s) => ({ label: 'snapshot (call ' + s + ')', url: imageUrl(s, false) })));
  else $('viewer').classList.add('hidden');
}

// ------------------------------------------------------------ image viewer

const V = { zoom: 1, images: [], flicker: null };
function loadImage(url) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('cannot load ' + url));
    img.src = url;
  });
}
async function showImages(list) {
  $('viewer').classList.remove('hidden');
  V.images = [];
  for (const it of list) {
    try { V.images.push({ label: it.label, img: await loadImage(it.url) }); } catch (e) { status(e.message); }
  }
  $('v-flicker-l').classList.toggle('hidden', V.images.length < 2);
  // a small snapshot starts enlarged, a big one fits the panel
  const first = V.images[0] && V.images[0].img, room = Math.max(200, ($('right').clientWidth - 40) / Math.max(1, V.images.length));
  if (first) {
    V.zoom = 1;
    while (first.naturalWidth * V.zoom * 2 <= room && V.zoom < 16) V.zoom *= 2;
    while (first.naturalWidth * V.zoom > room && V.zoom > 0.25) V.zoom /= 2;
  }
  renderImages();
}
function pixels(img) {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return g.getImageData(0, 0, c.width, c.height);
}
function renderImages() {
  const box = $('v-images');
  box.textContent = '';
  const ch = $('v-channel').value, alpha = $('v-alpha').checked, flip = $('v-flip').checked;
  $('v-zoom').textContent = V.zoom + 'x';
  const shown = V.flicker !== null ? [V.images[V.flicker]] : V.images;
  for (const it of shown) {
    const src = pixels(it.img), w = src.width, h = src.height;
    const out = new ImageData(w, h);
    for (let y = 0; y < h; y++) {
      const sy = flip ? h - 1 - y : y;
      for (let x = 0; x < w; x++) {
        const i = (sy * w + x) * 4, o = (y * w + x) * 4, p = src.data;
        if (ch === 'rgba') { out.data[o] = p[i]; out.data[o + 1] = p[i + 1]; out.data[o + 2] = p[i + 2]; }
        else { const v = p[i + 'rgba'.indexOf(ch)]; out.data[o] = out.data[o + 1] = out.data[o + 2] = v; }
        out.data[o + 3] = alpha && ch === 'rgba' ? p[i + 3] : 255;
      }
    }
    const c = el('canvas');
    c.width = w; c.height = h;
    c.style.width = (w * V.zoom) + 'px';
    c.style.height = (h * V.zoom) + 'px';
    c.getContext('2d').putImageData(out, 0, 0);
    c.onmousemove = (ev) => {
      const r = c.getBoundingClientRect();
      const x = Math.floor((ev.clientX - r.left) / V.zoom), y = Math.floor((ev.clientY - r.top) / V.zoom);
      if (x < 0 || y < 0 || x >= w || y >= h) return;
      const sy = flip ? h - 1 - y : y, i = (sy * w + x) * 4, p = src.data;
      $('v-pixel').textContent = it.label + ' (' + x + ', ' + sy + '): ' + p[i] + ' ' + p[i + 1] + ' ' + p[i + 2] + ' ' + p[i + 3];
    };
    const fig = el('figure');
    fig.appendChild(c);
    fig.appendChild(el('figcaption', '', it.label + ' ' + w + 'x' + h));
    box.appendChild(fig);
  }
}
let flickerTimer = null;
function setupViewer() {
  ['v-channel', 'v-alpha', 'v-flip'].forEach((id) => { $(id).onchange = renderImages; });
  $('v-zoom-in').onclick = () => { V.zoom = Math.min(32, V.zoom * 2); renderImages(); };
  $('v-zoom-out').onclick = () => { V.zoom = Math.max(0.25, V.zoom / 2); renderImages(); };
  $('v-images').onwheel = (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    V.zoom = ev.deltaY < 0 ? Math.min(32, V.zoom * 2) : Math.max(0.25, V.zoom / 2);
    renderImages();
  };
  $('v-flicker').onchange = () => {
    clearInterval(flickerTimer);
    V.flicker = null;
    if ($('v-flicker').checked) {
      V.flicker = 0;
      flickerTimer = setInterval(() => { V.flicker = (V.flicker + 1) % Math.min(2, V.images.length); renderImages(); }, 500);
    }
    renderImages();
  };
}

// ------------------------------------------------------------ state at a call

function flatten(o, path, out) {
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o)) flatten(v, path + '/' + k, out);
  } else out.set(path, JSON.stringify(o));
  return out;
}
async function stateOf(seq, note) {
  for (;;) {
    const j = await api('state', { n: seq });
    if (j.status === 'done') return j.state;
    if (j.status === 'failed') throw new Error('inspect failed at call ' + seq + ': ' + (j.log || ''));
    note.textContent = 'replaying up to call ' + seq + ' (gltrace inspect)...';
    await new Promise((r) => setTimeout(r, 400));
    if (S.call !== null && S.detail && S.detail.seq !== seq && S.detail.prev_draw !== seq) throw new Error('moved on');
  }
}
function stateFile(seq, name) { return '/api/state/file?n=' + seq + '&name=' + encodeURIComponent(name); }
async function loadState(d) {
  const box = $('state');
  box.textContent = '';
  const note = el('p', 'hint', 'starting...');
  box.appendChild(note);
  let st, prev = null;
  try {
    st = await stateOf(d.seq, note);
    if (d.prev_draw !== undefined && d.prev_draw !== d.seq) {
      try { prev = await stateOf(d.prev_draw, note); } catch (e) { prev = null; }
    }
  } catch (e) { note.textContent = e.message; return; }
  if (S.call !== d.seq) return;
  note.textContent = 'State after call ' + d.seq + (prev ? ' (yellow: changed since draw ' + d.prev_draw + ')' : '');
  const changed = prev ? flatten(prev, '', new Map()) : null;
  const now = flatten(st, '', new Map());
  const isChanged = (p) => changed && changed.get(p) !== now.get(p);
  // bound textures, with their images
  const tex = el('div');
  tex.id = 'state-textures';
  tex.appendChild(el('h4', '', 'Bound textures'));
  const objName = (n) => (n && typeof n === 'object' ? n.recorded + (n.replayed !== n.recorded ? ' (replay ' + n.replayed + ')' : '') : n);
  (st.textures || []).forEach((t) => {
    const fig = el('figure');
    fig.appendChild(el('figcaption', '', 'texture ' + objName(t.name) + ' ' + (t.target || '') + ' unit ' + t.unit));
    (t.levels || []).forEach((lv) => (lv.images || []).forEach((im) => {
      if (im.file && /\.png$/.test(im.file)) {
        const img = el('img', 'state-img');
        img.src = stateFile(d.seq, im.file);
        img.title = im.file;
        fig.appendChild(img);
      } else if (im.unreadable) fig.appendChild(el('div', 'hint', im.unreadable));
    }));
    tex.appendChild(fig);
  });
  if (!(st.textures || []).length) tex.appendChild(el('p', 'hint', 'none bound'));
  box.appendChild(tex);
  // framebuffer attachments
  const fbs = el('div');
  fbs.appendChild(el('h4', '', 'Framebuffer'));
  for (const which of ['draw', 'read']) {
    const fb = (st.framebuffers || {})[which];
    if (!fb) continue;
    for (const [att, a] of Object.entries(fb.attachments || {})) {
      if (!a.file || !/\.png$/.test(a.file)) continue;
      const fig = el('figure');
      const img = el('img', 'state-img');
      img.src = stateFile(d.seq, a.file);
      fig.appendChild(img);
      fig.appendChild(el('figcaption', '', which + ' framebuffer ' + objName(fb.name) + ' ' + att));
      fbs.appendChild(fig);
    }
  }
  box.appendChild(fbs);
  // buffers, program
  const bufs = el('details');
  bufs.appendChild(el('summary', '', 'Buffers (' + (st.buffers || []).length + ')'));
  (st.buffers || []).forEach((b) => bufs.appendChild(el('div', 'kv', 'buffer ' + objName(b.name) + ' ' + (b.bound_as || '') +
    ' ' + (b.GL_BUFFER_SIZE !== undefined ? b.GL_BUFFER_SIZE + ' bytes' : ''))));
  box.appendChild(bufs);
  if (st.program) {
    const pr = el('details');
    pr.appendChild(el('summary', '', 'Program ' + objName(st.program.name)));
    (st.program.shaders || []).forEach((s) => {
      pr.appendChild(el('div', 'kv', 'shader ' + objName(s.name) + ' ' + s.type));
      if (s.source) {
        const src = el('pre', 'src', '...');
        fetch(stateFile(d.seq, s.source)).then((r) => r.text()).then((t) => { src.textContent = t; });
        pr.appendChild(src);
      }
    });
    (st.program.uniforms || []).forEach((u) => {
      const row = el('div', 'kv', u.name + ' = ' + JSON.stringify(u.value));
      pr.appendChild(row);
    });
    box.appendChild(pr);
  }
  // every value, changed ones first and marked
  const all = el('details');
  all.open = !!changed;
  all.appendChild(el('summary', '', 'All state (' + now.size + ' values)'));
  const tb = el('table');
  const keys = [...now.keys()].sort((a, b) => (isChanged(b) - isChanged(a)) || (a < b ? -1 : 1));
  keys.slice(0, 5000).forEach((k) => {
    const tr = el('tr', isChanged(k) ? 'changed' : '');
    tr.appendChild(el('td', 'kv', k));
    tr.appendChild(el('td', 'kv', now.get(k)));
    if (isChanged(k)) tr.appendChild(el('td', 'kv', 'was ' + (changed.get(k) === undefined ? '(absent)' : changed.get(k))));
    tb.appendChild(tr);
  });
  all.appendChild(tb);
  box.appendChild(all);
}

// ------------------------------------------------------------ filter and find

async function runSearch(text, onProgress) {
  const res = text.split('&&').map((s) => s.trim()).filter((s) => s);
  const j = await api('find', { re: res, all: res.length > 1 ? 1 : 0 });
  for (;;) {
    const st = await api('find/status', { id: j.id });
    onProgress(st);
    if (st.done) { if (st.error) throw new Error(st.error); return j.id; }
    await new Promise((r) => setTimeout(r, 250));
  }
}
function progressText(what, st) {
  return what + ': ' + st.matches + ' matches, ' + Math.floor(100 * st.scanned / Math.max(1, st.total)) + '%';
}
async function applyFilter(text) {
  S.filter = text;
  S.pages.clear();
  writeHash();
  if (!text) { S.filterId = null; S.total = S.info.calls; if (EXPORT) S.total = (await chunk('calls-0')).total; drawList(); return; }
  if (EXPORT) {
    try { S.total = (await exportFiltered({ from: 0, count: 0 })).total; } catch (e) { status(e.message); return; }
    $('progress').textContent = 'filter: ' + S.total + ' matches';
    $('list').scrollTop = 0;
    drawList();
    return;
  }
  S.total = 0;
  try {
    const id = await runSearch(text, (st) => {
      $('progress').textContent = progressText('filter', st);
      S.filterId = st.id;
      S.total = st.matches;
      S.pages.clear();
      drawList();
    });
    S.filterId = id;
  } catch (e) { status(e.message); }
}
async function startFind(text) {
  S.find = text;
  S.findId = null;
  S.matches = new Set();
  writeHash();
  if (!text) { $('progress').textContent = ''; return; }
  if (EXPORT) { S.findId = 'export'; return; }
  try {
    S.findId = await runSearch(text, (st) => { $('progress').textContent = progressText('find', st); });
  } catch (e) { status(e.message); }
}
async function findStep(back) {
  if (!S.find) return;
  if (S.findId === null) await startFind(S.find);
  const from = S.call !== null ? S.call : (S.info.first_seq || 0);
  let seq = null;
  if (EXPORT) {
    const all = await exportCalls(), m = matcher(S.find);
    const hits = all.filter((c) => m(c.text.replace(/^\d+ /, '')));
    const h = back ? hits.filter((c) => c.seq < from).pop() : hits.find((c) => c.seq > from);
    seq = h ? h.seq : null;
  } else {
    const next = () => api('find/next', { id: S.findId, from, back: back ? 1 : 0 });
    let j;
    try { j = await next(); } catch (e) {
      if (!/^no search/.test(e.message)) { status(e.message); return; }
      await startFind(S.find); // the server let the search go: run it again
      try { j = await next(); } catch (e2) { status(e2.message); return; }
    }
    seq = j.seq;
  }
  if (seq === null) { status('no ' + (back ? 'earlier' : 'later') + ' match'); return; }
  status('');
  S.matches.add(seq);
  await scrollToSeq(seq);
  await selectCall(seq);
  drawList();
}

// ------------------------------------------------------------ tree, stats, timeline, report

async function showTree() {
  const box = $('tab-tree');
  box.textContent = '';
  const f = await frameInfo(S.frame);
  if (!f) return;
  box.appendChild(el('h4', '', 'Frame ' + f.n + ': calls ' + f.first + '-' + f.last));
  const count = Math.min(f.calls, 5000);
  let calls = [];
  try {
    const at = await locate(f.first);
    for (let p = 0; p < count; p += 1000) calls.push(...(await api('calls', { from: at.pos + p, count: Math.min(1000, count - p) })).calls);
  } catch (e) { status(e.message); return; }
  if (f.calls > count) box.appendChild(el('p', 'hint', 'the first ' + count + ' of ' + f.calls + ' calls'));
  // one subtree per context; debug groups nest, draws and errors are leaves
  const byCtx = new Map();
  const root = el('div', 'tree');
  for (const c of calls) {
    if (c.synthetic || c.ctx === 65535) continue;
    if (!(c.push || c.pop || c.draw || c.error || c.swap)) continue;
    if (!byCtx.has(c.ctx)) {
      const li = el('li', '', 'context ' + c.ctx);
      const ul = el('ul');
      li.appendChild(ul);
      const top = el('ul');
      top.appendChild(li);
      root.appendChild(top);
      byCtx.set(c.ctx, [ul]);
    }
    const stack = byCtx.get(c.ctx);
    if (c.pop) { if (stack.length > 1) stack.pop(); continue; }
    const label = c.push ? '▾ ' + ((c.text.match(/"((?:[^"\\]|\\.)*)"/) || [, '(group)'])[1]) + '  (' + c.fn + ' ' + c.seq + ')'
      : c.seq + ' ' + c.text.replace(/^\d+ /, '') + (c.error ? '  -> ' + c.error : '');
    const li = el('li', c.draw ? 'draw' : c.error ? 'error' : '', label);
    li.dataset.seq = c.seq;
    li.onclick = (ev) => { ev.stopPropagation(); scrollToSeq(c.seq); selectCall(c.seq); };
    stack[stack.length - 1].appendChild(li);
    if (c.push) { const ul = el('ul'); li.appendChild(ul); stack.push(ul); }
  }
  box.appendChild(root);
}

let statsSort = { key: 'wall', dir: -1 }, statsAll = false;
async function showStats() {
  const box = $('tab-stats');
  box.textContent = '';
  let s;
  try { s = await api('stats', statsAll ? {} : { frame: S.frame }); } catch (e) { status(e.message); return; }
  const tgl = el('button', '', statsAll ? 'show this frame' : 'show the whole trace');
  tgl.onclick = () => { statsAll = !statsAll; showStats(); };
  box.appendChild(tgl);
  box.appendChild(el('p', '', (s.frame === null ? 'Whole trace' : 'Frame ' + s.frame) + ': ' + s.calls + ' calls, ' +
    s.draws + ' draws, wall ' + ns(s.wall) + ', thread ' + ns(s.cpu) + (s.t1 ? ', frame span ' + ns(s.t1 - s.t0) : '')));
  const rows = s.functions.map((f) => Object.assign({ mean: f.wall / f.count }, f));
  rows.sort((a, b) => (a[statsSort.key] < b[statsSort.key] ? -1 : a[statsSort.key] > b[statsSort.key] ? 1 : 0) * statsSort.dir);
  const t = el('table');
  t.id = 'stats-table';
  const hr = el('tr');
  [['fn', 'function'], ['count', 'count'], ['wall', 'total wall'], ['mean', 'mean wall'], ['cpu', 'total thread']].forEach(([k, label]) => {
    const th = el('th', k === 'fn' ? '' : 'num', label + (statsSort.key === k ? (statsSort.dir > 0 ? ' ▲' : ' ▼') : ''));
    th.onclick = () => { statsSort = { key: k, dir: statsSort.key === k ? -statsSort.dir : (k === 'fn' ? 1 : -1) }; showStats(); };
    hr.appendChild(th);
  });
  t.appendChild(hr);
  rows.forEach((f) => {
    const tr = el('tr');
    tr.appendChild(el('td', '', f.fn));
    tr.appendChild(el('td', 'num', f.count));
    tr.appendChild(el('td', 'num', ns(f.wall)));
    tr.appendChild(el('td', 'num', ns(Math.round(f.mean))));
    tr.appendChild(el('td', 'num', ns(f.cpu)));
    t.appendChild(tr);
  });
  box.appendChild(t);
}

const TL = { data: null, a: 0, b: 1 };
async function showTimeline() {
  try { TL.data = await api('timeline', { f0: S.frame, f1: S.frame }); } catch (e) { status(e.message); return; }
  const d = TL.data;
  let end = 1;
  for (let i = 0; i < d.t.length; i++) end = Math.max(end, d.t[i] + d.dur[i]);
  TL.a = 0; TL.b = end;
  drawTimeline();
}
function drawTimeline() {
  const c = $('tl'), d = TL.data;
  if (!d) return;
  const lanes = d.lanes.length, LH = 28;
  c.width = c.clientWidth || 800;
  c.height = 24 + lanes * LH;
  const g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);
  const sx = c.width / (TL.b - TL.a);
  g.fillStyle = '#555'; g.font = '11px sans-serif';
  g.fillText('frame ' + d.f0 + ': ' + ns(TL.a) + ' .. ' + ns(TL.b) + (d.truncated ? ' (first calls only)' : ''), 4, 12);
  d.lanes.forEach((l, i) => g.fillText('tid ' + l.tid + ' ctx ' + l.ctx, 4, 24 + i * LH + 10));
  const colors = ['#90a4ae', '#1e88e5', '#43a047', '#e53935'];
  for (let i = 0; i < d.t.length; i++) {
    const x0 = (d.t[i] - TL.a) * sx, w = Math.max(1, d.dur[i] * sx);
    if (x0 > c.width || x0 + w < 0) continue;
    g.fillStyle = colors[d.kind[i]];
    g.fillRect(x0, 24 + d.lane[i] * LH + 12, w, LH - 14);
  }
}
function timelineKeys(ev) {
  if (S.tab !== 'timeline' || !TL.data || ev.target.tagName === 'INPUT') return;
  // zoom about the time under the mouse, as Perfetto does
  const span = TL.b - TL.a, mid = TL.mouse !== undefined && TL.mouse >= TL.a && TL.mouse <= TL.b ? TL.mouse : (TL.a + TL.b) / 2;
  const f = (mid - TL.a) / span;
  const k = ev.key.toLowerCase();
  if (k === 'w') { TL.a = mid - f * span / 2; TL.b = TL.a + span / 2; }
  else if (k === 's') { TL.a = mid - f * span * 2; TL.b = TL.a + span * 2; }
  else if (k === 'a') { TL.a -= span / 5; TL.b -= span / 5; }
  else if (k === 'd') { TL.a += span / 5; TL.b += span / 5; }
  else return;
  drawTimeline();
}
function timelineAt(ev) {
  const c = $('tl'), d = TL.data;
  if (!d) return -1;
  const r = c.getBoundingClientRect();
  const t = TL.a + (ev.clientX - r.left) / c.width * (TL.b - TL.a);
  const lane = Math.floor((ev.clientY - r.top - 24) / 28);
  let best = -1, bestd = Infinity;
  for (let i = 0; i < d.t.length; i++) {
    if (d.lane[i] !== lane) continue;
    const dist = t < d.t[i] ? d.t[i] - t : t > d.t[i] + d.dur[i] ? t - d.t[i] - d.dur[i] : 0;
    if (dist < bestd) { bestd = dist; best = i; }
  }
  return best;
}
function timelineClick(ev) {
  const i = timelineAt(ev);
  if (i >= 0) { const seq = TL.data.first + i; scrollToSeq(seq); selectCall(seq); }
}
function timelineHover(ev) {
  const c = $('tl'), r = c.getBoundingClientRect();
  TL.mouse = TL.a + (ev.clientX - r.left) / c.width * (TL.b - TL.a);
  const i = timelineAt(ev), d = TL.data;
  $('tl-help').textContent = i < 0 ? 'W/S zoom, A/D pan, click a call' :
    (d.first + i) + ' ' + d.names[d.fn[i]] + ' at ' + ns(d.t[i]) + ', ' + ns(d.dur[i]);
}

async function showReport(start) {
  const box = $('tab-report');
  box.textContent = '';
  let r;
  try { r = await api(start ? 'replay' : 'report', start ? { start: 1 } : {}); } catch (e) { box.appendChild(el('p', 'hint', e.message)); return; }
  if (!EXPORT) {
    const b = el('button', '', r.status === 'running' ? 'replaying...' : 'Replay now and compare');
    b.id = 'replay-btn';
    b.disabled = r.status === 'running';
    b.onclick = () => showReport(true);
    box.appendChild(b);
  }
  if (r.status === 'running') { setTimeout(() => { if (S.tab === 'report') showReport(false); }, 1000); return; }
  if (!r.report) { box.appendChild(el('p', 'hint', EXPORT ? 'no report in this export' : 'no replay report yet: give --report R.json or replay now')); if (r.log) box.appendChild(el('pre', 'src', r.log)); return; }
  const rep = r.report;
  box.appendChild(el('p', rep.status === 'matched' ? 'ok' : 'fail', 'replay: ' + rep.status + (rep.error ? ' (' + rep.error + ')' : '')));
  const res = (rep.results || []).map((x, k) => Object.assign({ k }, x));
  const rank = (x) => (x.status === 'differs' ? 0 : x.status === 'matched' ? 2 : 1);
  res.sort((a, b) => rank(a) - rank(b) || a.call - b.call); // failures first
  const t = el('table');
  res.slice(0, 2000).forEach((x) => {
    const tr = el('tr');
    tr.appendChild(el('td', x.status === 'matched' ? 'ok' : 'fail', x.status));
    tr.appendChild(el('td', '', 'call ' + x.call + ' frame ' + x.frame + ' ' + x.what));
    tr.appendChild(el('td', 'num', x.diff_pixels !== undefined ? x.diff_pixels + ' px' : ''));
    tr.onclick = () => {
      const imgs = [];
      for (const w of ['expected', 'actual', 'diff']) if (x[w + '_png']) imgs.push({ label: w, url: '/api/report/image?k=' + x.k + '&which=' + w });
      scrollToSeq(x.call); selectCall(x.call).then(() => showImages(imgs));
    };
    t.appendChild(tr);
  });
  box.appendChild(t);
}

function refreshTab() {
  if (S.tab === 'tree') showTree();
  else if (S.tab === 'stats') showStats();
  else if (S.tab === 'timeline') showTimeline();
  else if (S.tab === 'report') showReport(false);
}
function selectTab(tab) {
  S.tab = tab;
  document.querySelectorAll('#tabs button').forEach((b) => b.classList.toggle('on', b.dataset.tab === tab));
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('on', t.id === 'tab-' + tab));
  writeHash();
  if (tab === 'calls') drawList(); else refreshTab();
}

// ------------------------------------------------------------ start

async function main() {
  try { S.info = await api('info'); } catch (e) { status('cannot read the trace: ' + e.message); return; }
  document.title = S.info.trace + ' - gltrace view';
  $('title').textContent = S.info.trace + ' (' + S.info.calls + ' calls, ' + S.info.frames + ' frames)';
  S.total = EXPORT ? (await chunk('calls-0')).total : S.info.calls;
  setupViewer();
  $('strip').onscroll = drawStrip;
  $('list').onscroll = drawList;
  window.onresize = () => { drawStrip(); drawList(); drawTimeline(); };
  document.querySelectorAll('#tabs button').forEach((b) => { b.onclick = () => selectTab(b.dataset.tab); });
  $('goto-call').onchange = async (ev) => {
    const n = parseInt(ev.target.value, 10);
    if (isNaN(n)) return;
    try { await scrollToSeq(n); await selectCall(n); } catch (e) { status(e.message); }
  };
  $('goto-frame').onchange = (ev) => { const n = parseInt(ev.target.value, 10); if (!isNaN(n)) selectFrame(n, true); };
  $('filter').onchange = (ev) => applyFilter(ev.target.value.trim());
  $('find').onchange = (ev) => startFind(ev.target.value.trim()).then(() => findStep(false));
  $('find-next').onclick = () => findStep(false);
  $('find-prev').onclick = () => findStep(true);
  $('tl').onclick = timelineClick;
  $('tl').onmousemove = timelineHover;
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'F3') { ev.preventDefault(); findStep(ev.shiftKey); return; }
    timelineKeys(ev);
  });
  const h = readHash();
  const [f0] = frameList();
  S.frame = h.frame !== null ? parseInt(h.frame, 10) : f0;
  drawStrip();
  if (h.filter) { $('filter').value = h.filter; await applyFilter(h.filter); }
  if (h.find) { $('find').value = h.find; await startFind(h.find); }
  if (h.call !== null) { await scrollToSeq(parseInt(h.call, 10)); await selectCall(parseInt(h.call, 10)); }
  else await selectFrame(S.frame, true);
  scrollStripTo(S.frame);
  if (h.tab) selectTab(h.tab);
  drawList();
  document.body.dataset.ready = '1'; // for tests: the first view is up
}
main();
