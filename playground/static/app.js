// The playground's page: an editor for .dp files, the examples from
// models/, and the reports of dpcheck running in a Web Worker (worker.js).
'use strict';

const $ = (id) => document.getElementById(id);
const MAX_SHARED = 1 << 20; // bytes a shared link may inflate to

const page = {
  files: {}, examples: [], keywords: new Set(), name: 'models/geometric.dp',
  module: null, worker: null, ready: false, running: null, nextID: 1, marks: [],
};

// ---- the editor: a textarea over its highlighted copy ----

const escapeHTML = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?)|(\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)(\s*\()?|([\s\S])/g;

// highlight returns the HTML of one line of source.
function highlightLine(line) {
  let out = '';
  for (const m of line.matchAll(TOKEN)) {
    if (m[1]) out += '<span class="c">' + escapeHTML(m[1]) + '</span>';
    else if (m[2]) out += '<span class="s">' + escapeHTML(m[2]) + '</span>';
    else if (m[3]) out += '<span class="n">' + m[3] + '</span>';
    else if (m[4]) {
      const cls = page.keywords.has(m[4]) ? 'k' : (m[5] ? 'f' : '');
      out += (cls ? '<span class="' + cls + '">' + m[4] + '</span>' : m[4]) + (m[5] || '');
    } else out += escapeHTML(m[6]);
  }
  return out;
}

// markAt highlights a line with the word (or character) at a column,
// counted in bytes of UTF-8 as the reports count it, underlined.
function markAt(line, column) {
  const bytes = new TextEncoder().encode(line);
  const at = new TextDecoder().decode(bytes.slice(0, Math.max(0, column - 1))).length;
  const word = /^[A-Za-z0-9_.]+|^[\s\S]/.exec(line.slice(at));
  const end = at + (word ? word[0].length : 0);
  return highlightLine(line.slice(0, at)) + '<span class="errat">' + (highlightLine(line.slice(at, end)) || ' ') + '</span>' + highlightLine(line.slice(end));
}

// render redraws the highlighted copy, the line numbers and the marks.
// Block comments are highlighted line by line: a line inside one is
// found by scanning for its start.
function render() {
  const src = $('source').value;
  const lines = src.split('\n');
  const byLine = new Map();
  for (const mk of page.marks) if (!byLine.has(mk.line)) byLine.set(mk.line, mk);
  let inComment = false;
  const html = lines.map((line, i) => {
    let h;
    if (inComment) {
      const end = line.indexOf('*/');
      if (end < 0) h = '<span class="c">' + escapeHTML(line) + '</span>';
      else { h = '<span class="c">' + escapeHTML(line.slice(0, end + 2)) + '</span>' + highlightLine(line.slice(end + 2)); inComment = false; }
    } else h = highlightLine(line);
    const open = line.lastIndexOf('/*'), close = line.lastIndexOf('*/');
    if (!inComment && open >= 0 && open > close && !line.slice(0, open).includes('//')) inComment = true;
    const mk = byLine.get(i + 1);
    if (mk) {
      if (!inComment) h = markAt(line, mk.column);
      h = '<span class="errline" title="' + escapeHTML(mk.msg) + '">' + (h || ' ') + '</span>';
    }
    return h;
  });
  $('highlight').innerHTML = html.join('\n') + '\n';
  $('gutter').innerHTML = lines.map((_, i) => byLine.has(i + 1)
    ? '<span class="err" title="' + escapeHTML(byLine.get(i + 1).msg) + '">' + (i + 1) + '</span>'
    : String(i + 1)).join('\n') + '\n';
  syncScroll();
}

function syncScroll() {
  const s = $('source');
  $('highlight').scrollTop = s.scrollTop;
  $('highlight').scrollLeft = s.scrollLeft;
  $('gutter').scrollTop = s.scrollTop;
}

function setSource(name, text) {
  page.name = name;
  page.marks = [];
  $('filename').textContent = name;
  $('source').value = text;
  $('source').scrollTop = 0;
  render();
  const sel = $('examples');
  sel.value = page.examples.includes(name) && page.files[name] === text ? name : '';
}

// goTo puts the caret at line:column and scrolls it into view.
function goTo(line, column) {
  const s = $('source');
  const lines = s.value.split('\n');
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, column - 1);
  s.focus();
  s.setSelectionRange(at, at);
  const lh = parseFloat(getComputedStyle(s).lineHeight) || 20;
  s.scrollTop = Math.max(0, (line - 5) * lh);
  syncScroll();
}

// ---- the worker ----

function startWorker() {
  page.ready = false;
  updateButtons();
  const w = new Worker('worker.js');
  page.worker = w;
  w.onmessage = (e) => onWorkerMessage(e.data);
  w.onerror = (e) => {
    e.preventDefault();
    const msg = 'dpcheck stopped in the browser: ' + (e.message || 'the worker failed') + ' (a check larger than a browser tab can hold runs on the command line: dpcheck FILE)';
    if (page.running) finish({ status: 'aborted', text: msg + '\n' });
    setStatus(msg);
    restartWorker();
  };
  w.postMessage({ type: 'init', module: page.module });
}

function restartWorker() {
  if (page.worker) page.worker.terminate();
  startWorker();
}

function onWorkerMessage(m) {
  switch (m.type) {
    case 'ready':
      page.ready = true;
      if (window.dpcheckReadyAt === undefined) window.dpcheckReadyAt = performance.now();
      $('version').textContent = m.version;
      if (!page.running) setStatus('ready');
      updateButtons();
      break;
    case 'progress':
      if (page.running && m.id === page.running.id) {
        const secs = ((performance.now() - page.running.start) / 1000).toFixed(1);
        setStatus('checking… ' + m.stage + (m.total > 0 ? ' ' + m.done + '/' + m.total : '') + ' (' + secs + ' s)');
      }
      break;
    case 'done':
      if (page.running && m.id === page.running.id) finish(m.response);
      break;
    case 'chain':
      if (m.id === page.lastID && !page.running) {
        if (m.svg) showPicture('chain', m.svg, '', page.chainCaption);
        else { showPicture('chain', '', page.lastChain, page.chainCaption); notePicture('chain', m.error); }
      }
      break;
  }
}

function updateButtons() {
  $('run').disabled = !page.ready || !!page.running;
  $('stop').disabled = !page.running || !!(page.running.stop && Atomics.load(page.running.stop, 0));
}

function setStatus(s) { $('status').textContent = s; }

function run() {
  if (!page.ready || page.running) return;
  const id = page.nextID++;
  page.running = { id, start: performance.now() };
  updateButtons();
  setStatus('checking…');
  $('verdict').className = '';
  $('verdict').textContent = '';
  document.body.dataset.state = 'running';
  // Shared memory (the page is served cross-origin isolated) lets Stop
  // reach the check while it holds the worker.
  page.running.stop = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  page.worker.postMessage({
    type: 'check', id, stop: page.running.stop,
    request: { name: page.name, source: $('source').value, files: page.files, pictures: $('pictures').checked },
  });
}

// STOP_WAIT is how long Stop waits for the check to stop itself (and
// report what it finished) before it ends the worker.
const STOP_WAIT = 1500;

function stop() {
  const running = page.running;
  if (!running) return;
  $('stop').disabled = true;
  setStatus('stopping…');
  if (running.stop) Atomics.store(running.stop, 0, 1);
  setTimeout(() => {
    if (page.running !== running) return; // it stopped and reported
    finish({ status: 'aborted', text: 'stopped: the check was ended before it finished (Stop)\n' });
    restartWorker();
    setStatus('stopped; ready again once dpcheck has restarted');
  }, running.stop ? STOP_WAIT : 0);
}

// ---- the result ----

const STATUS_WORD = { pass: 'PASS', fail: 'FAIL', invalid: 'INVALID', aborted: 'STOPPED', internal: 'INTERNAL ERROR' };

function finish(r) {
  const took = page.running ? performance.now() - page.running.start : 0;
  page.lastID = page.running ? page.running.id : 0;
  page.lastChain = r.chain || '';
  page.chainCaption = r.summarized ? 'The chain is too large to draw whole: this is a summary (the pair, the worst event and counts of the rest).' : '';
  page.running = null;
  updateButtons();
  document.body.dataset.state = 'done';
  document.body.dataset.status = r.status;
  $('verdict').className = r.status;
  $('verdict').textContent = STATUS_WORD[r.status] || r.status;
  page.marks = r.marks || [];
  render();
  $('marks').replaceChildren(...page.marks.map((mk) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'line ' + mk.line + ':' + mk.column + ': ' + mk.msg;
    b.onclick = () => goTo(mk.line, mk.column);
    li.append(b);
    return li;
  }));
  $('text').innerHTML = colourReport(r.text || '');
  $('report').dataset.json = r.json || '';
  if (r.chain) {
    $('chain').replaceChildren();
    notePicture('chain', 'Drawing the chain…');
  } else showPicture('chain', '', '', '');
  showPicture('profile', r.profile, '', '');
  for (const n of r.notes || []) { notePicture('chain', n); notePicture('profile', n); }
  setStatus((STATUS_WORD[r.status] || r.status) + ' in ' + (took / 1000).toFixed(2) + ' s');
  window.dpcheckLast = r; // for tests and the curious
  window.dpcheckFinishedAt = performance.now();
}

function colourReport(text) {
  return text.split('\n').map((line) => {
    const h = escapeHTML(line);
    if (/^\s+PASS\b/.test(line)) return h.replace('PASS', '<span class="pass">PASS</span>');
    if (/^\s+FAIL\b/.test(line)) return h.replace('FAIL', '<span class="fail">FAIL</span>');
    if (/^\s*\S+:\d+:\d+: /.test(line) || /^\s*(error|stopped):/.test(line)) return '<span class="err">' + h + '</span>';
    return h;
  }).join('\n');
}

function showPicture(tab, svg, dot, caption) {
  const el = $(tab);
  el.replaceChildren();
  if (caption) { const p = document.createElement('p'); p.className = 'note'; p.textContent = caption; el.append(p); }
  if (svg) {
    const img = document.createElement('img');
    img.alt = tab === 'chain' ? 'The chain, its first counterexample highlighted' : 'The privacy profile δ(ε)';
    img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    el.append(img);
  } else if (dot) {
    const pre = document.createElement('pre');
    pre.textContent = dot;
    el.append(pre);
  } else {
    const p = document.createElement('p');
    p.className = 'empty';
    p.textContent = 'No picture.';
    el.append(p);
  }
}

function notePicture(tab, text) {
  const p = document.createElement('p');
  p.className = 'note';
  p.textContent = text;
  $(tab).prepend(p);
}

// ---- share links: the file, deflated, in the URL's fragment ----

async function deflate(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function inflate(b64) {
  const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > MAX_SHARED) { reader.cancel(); throw new Error('the shared file is larger than ' + MAX_SHARED + ' bytes'); }
    parts.push(value);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
}

async function share() {
  const params = new URLSearchParams({ name: page.name, src: await deflate($('source').value) });
  const url = location.href.split('#')[0] + '#' + params.toString();
  history.replaceState(null, '', url);
  $('sharebox').hidden = false;
  $('sharelink').value = url;
  $('sharelink').select();
  try {
    await navigator.clipboard.writeText(url);
    $('sharenote').textContent = 'copied';
  } catch {
    $('sharenote').textContent = 'copy the link above';
  }
}

// fromLink returns the file a link carries, or null.
async function fromLink() {
  if (location.hash.length < 2) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const src = params.get('src');
  if (src === null) return null;
  let name = params.get('name') || 'playground.dp';
  if (!/^[A-Za-z0-9_.\/-]{1,200}$/.test(name) || name.split('/').includes('..')) name = 'playground.dp';
  return { name, text: await inflate(src) };
}

// ---- start ----

async function boot() {
  try {
    const [examples, module] = await Promise.all([
      fetch('examples.json').then((r) => r.json()),
      WebAssembly.compileStreaming(fetch('dpcheck.wasm')),
    ]);
    page.module = module;
    page.files = examples.files;
    page.examples = examples.examples;
    page.keywords = new Set(examples.keywords);
    const sel = $('examples');
    const none = new Option('— your file —', '');
    none.disabled = true;
    sel.append(none);
    let group = null;
    for (const name of page.examples) {
      const dir = name.slice(0, name.lastIndexOf('/'));
      if (!group || group.label !== dir) { group = document.createElement('optgroup'); group.label = dir; sel.append(group); }
      group.append(new Option(name.slice(dir.length + 1), name));
    }
    let first = null;
    try { first = await fromLink(); } catch (err) { setStatus('the shared link is damaged: ' + err.message); }
    if (first) setSource(first.name, first.text);
    else setSource(page.name, page.files[page.name] || '');
    startWorker();
  } catch (err) {
    setStatus('dpcheck could not start in this browser: ' + err.message);
  }
}

$('source').addEventListener('input', () => { page.marks = []; render(); $('examples').value = page.files[page.name] === $('source').value ? page.name : ''; });
$('source').addEventListener('scroll', syncScroll);
$('source').addEventListener('keydown', (e) => {
  if (e.key === 'Tab' && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    document.execCommand('insertText', false, '  ');
  }
});
document.addEventListener('keydown', (e) => { if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); run(); } });
$('examples').addEventListener('change', (e) => { if (e.target.value) { setSource(e.target.value, page.files[e.target.value]); history.replaceState(null, '', location.href.split('#')[0]); } });
$('run').addEventListener('click', run);
$('stop').addEventListener('click', stop);
$('share').addEventListener('click', share);
for (const b of document.querySelectorAll('#tabs button')) {
  b.addEventListener('click', () => {
    for (const x of document.querySelectorAll('#tabs button')) x.classList.toggle('active', x === b);
    for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.id === b.dataset.tab);
  });
}
boot();
