// The playground's page: an editor for .dp files, the examples from
// models/, and the reports of dpcheck running in a Web Worker (worker.js).
'use strict';

const $ = (id) => document.getElementById(id);
const MAX_SHARED = 1 << 20; // bytes a shared link may carry, inflated
const PLAIN_CHARS = 50000; // a larger file is edited without highlighting
const MAX_EDITOR_MARKS = 100; // errors marked in the editor (all are listed)
const MAX_REPORT_LINES = 20000; // lines of the report shown (the JSON report has all)
const MAX_LISTED_MARKS = 200; // errors listed above the report
const STOP_WAIT = 2000; // ms Stop waits for a check to stop itself before ending the worker

const page = {
  files: {}, examples: [], keywords: new Set(), name: 'models/geometric.dp',
  module: null, worker: null, ready: false, running: null, nextID: 1,
  marks: [], // the marks of the last run in the editor's file, while its text is unchanged
  ranSource: null, lastID: 0, lastChain: '', chainCaption: '', urls: [], escaped: false,
};

// ---- the editor: a textarea over its highlighted copy ----

const escapeHTML = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

// TOKEN splits a source into comments (block comments across lines),
// strings, numbers, words (a word before "(" is a call) and the rest.
const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:[^"\\\n]|\\.)*"?)|(\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)(?=(\s*\()?)|([\s\S])/g;

function tokenClass(m) {
  if (m[1]) return 'c';
  if (m[2]) return 's';
  if (m[3]) return 'n';
  if (m[4]) return page.keywords.has(m[4]) ? 'k' : (m[5] ? 'f' : '');
  return '';
}

// codePointIndex returns the index in a JavaScript string (UTF-16) of
// the character at a column that counts code points from 1, as dpcheck's
// positions do.
function codePointIndex(line, column) {
  let i = 0, n = 1;
  for (const ch of line) {
    if (n >= column) break;
    i += ch.length;
    n++;
  }
  return i;
}

// errorRanges returns, for the marks, the ranges [start, end) of the
// source to underline: the word (or character) at each mark.
function errorRanges(src) {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  const ranges = [];
  for (const mk of page.marks.slice(0, MAX_EDITOR_MARKS)) {
    if (mk.line > starts.length) continue;
    const from = starts[mk.line - 1];
    const to = mk.line < starts.length ? starts[mk.line] - 1 : src.length;
    const at = from + codePointIndex(src.slice(from, to), mk.column);
    const word = /^[A-Za-z0-9_.]+|^[^\n]/.exec(src.slice(at, to));
    ranges.push([at, at + (word ? word[0].length : 0), mk]);
  }
  return ranges;
}

// highlighted returns the source's lines as HTML, tokens coloured and the
// marks' words underlined.
function highlighted(src) {
  const ranges = errorRanges(src);
  const cuts = new Set();
  for (const [a, b] of ranges) { cuts.add(a); cuts.add(b); }
  const lines = [''];
  const emit = (text, cls, underline) => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push('');
      if (part === '') return;
      let h = cls ? '<span class="' + cls + '">' + escapeHTML(part) + '</span>' : escapeHTML(part);
      if (underline) h = '<span class="errat">' + h + '</span>';
      lines[lines.length - 1] += h;
    });
  };
  for (const m of src.matchAll(TOKEN)) {
    const cls = tokenClass(m);
    let at = m.index;
    const end = m.index + m[0].length;
    // Cut the token where an underlined range starts or ends.
    let from = at;
    for (let i = at + 1; i <= end; i++) {
      if (i === end || cuts.has(i)) {
        const under = ranges.some(([a, b]) => from >= a && from < b);
        emit(src.slice(from, i), cls, under);
        from = i;
      }
    }
  }
  return lines;
}

let renderQueued = false;
function render() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; renderNow(); });
}

// renderNow redraws the highlighted copy, the line numbers and the
// marks. A very large file is shown as plain text, without them.
function renderNow() {
  const src = $('source').value;
  const plain = src.length > PLAIN_CHARS;
  $('editor').classList.toggle('plain', plain);
  if (plain) {
    $('highlight').textContent = '';
    $('gutter').textContent = '';
    return;
  }
  const lines = highlighted(src);
  const byLine = new Map();
  for (const mk of page.marks.slice(0, MAX_EDITOR_MARKS)) if (!byLine.has(mk.line)) byLine.set(mk.line, mk);
  $('highlight').innerHTML = lines.map((h, i) => {
    const mk = byLine.get(i + 1);
    return mk ? '<span class="errline" title="' + escapeHTML(mk.msg) + '">' + (h || ' ') + '</span>' : h;
  }).join('\n') + '\n';
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

// setSource puts a file in the editor.
// setSource puts a file in the editor; shared says it came by a link,
// which then stays in the address bar.
function setSource(name, text, shared) {
  page.name = name;
  $('filename').textContent = name;
  $('source').value = text;
  $('source').scrollTop = 0;
  edited(shared);
}

// edited is called when the editor's text or file changes: the marks
// and the share link no longer hold, and the report is of another text.
function edited(shared) {
  page.marks = [];
  render();
  $('examples').value = page.examples.includes(page.name) && page.files[page.name] === $('source').value ? page.name : '';
  if (shared !== true) {
    $('sharebox').hidden = true;
    if (location.hash) history.replaceState(null, '', location.href.split('#')[0]);
  }
  const stale = page.ranSource !== null && page.ranSource !== $('source').value;
  for (const id of ['report', 'chain', 'profile']) $(id).classList.toggle('stale', stale);
  if (!stale && page.ranSource !== null) page.marks = (page.allMarks || []).filter((mk) => mk.file === page.name);
  renderMarkList();
  if (!stale) render();
}

// goTo puts the caret at line:column (column in code points).
function goTo(line, column) {
  const s = $('source');
  const lines = s.value.split('\n');
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += codePointIndex(lines[line - 1] || '', column);
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
    workerFailed(e.message || 'the worker failed');
  };
  w.postMessage({ type: 'init', module: page.module });
}

function restartWorker() {
  if (page.worker) page.worker.terminate();
  startWorker();
}

// workerFailed ends the check under way when dpcheck itself stopped in
// the browser (out of memory, say), and starts it afresh.
function workerFailed(msg) {
  const why = /call stack/i.test(msg)
    ? 'it needed a deeper stack than the browser gives (' + msg + ')'
    : msg;
  const text = 'dpcheck stopped in the browser: ' + why + '. The command line checks it: dpcheck FILE.';
  if (page.running) finish({ status: 'internal', text: text + '\n' });
  setStatus(text);
  // A worker that fails before it is ready would fail again: start it
  // again only a few times in a row.
  page.failures = (page.failures || 0) + 1;
  if (page.failures <= 3) restartWorker();
  else { page.worker.terminate(); page.ready = false; updateButtons(); setStatus(text + ' Reload the page to try again.'); }
}

function onWorkerMessage(m) {
  switch (m.type) {
    case 'ready':
      page.ready = true;
      page.failures = 0;
      if (window.dpcheckReadyAt === undefined) window.dpcheckReadyAt = performance.now();
      $('version').textContent = m.version;
      if (!page.running) setStatus('ready');
      updateButtons();
      break;
    case 'fatal':
      workerFailed(m.error);
      break;
    case 'progress':
      if (page.running && m.id === page.running.id) {
        page.running.stage = m.stage + (m.total > 0 ? ' ' + m.done + '/' + m.total : '');
        showProgress();
      }
      break;
    case 'done':
      if (page.running && m.id === page.running.id) finish(m.response);
      break;
    case 'chain':
      if (m.id === page.lastID && !page.running) {
        if (m.svg) showPicture('chain', m.svg, '', page.chainCaption);
        else showPicture('chain', '', page.lastChain, m.error);
      }
      break;
  }
}

function showProgress() {
  const r = page.running;
  if (!r || r.stopping) return;
  const secs = ((performance.now() - r.start) / 1000).toFixed(1);
  setStatus('checking… ' + (r.stage || '') + ' (' + secs + ' s)');
}

function updateButtons() {
  $('run').disabled = !page.ready || !!page.running;
  $('stop').disabled = !page.running || !!page.running.stopping;
}

function setStatus(s) { $('status').textContent = s; }

function setNotice(s) {
  $('notice').textContent = s;
  $('notice').hidden = !s;
}

function run() {
  if (!page.ready || page.running) return;
  const id = page.nextID++;
  const source = $('source').value;
  page.running = { id, start: performance.now(), source, stage: '' };
  // Shared memory (the page is served cross-origin isolated) lets Stop
  // reach the check while it holds the worker.
  page.running.stop = self.crossOriginIsolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  page.running.ticker = setInterval(showProgress, 250);
  updateButtons();
  setStatus('checking…');
  setNotice('');
  $('verdict').className = '';
  $('verdict').textContent = '';
  $('report').classList.remove('stale');
  $('marks').replaceChildren();
  $('text').replaceChildren(line('Checking ' + page.name + '…'));
  for (const id of ['report', 'chain', 'profile']) $(id).classList.remove('stale');
  showPicture('chain', '', '', 'Checking…');
  showPicture('profile', '', '', 'Checking…');
  document.body.dataset.state = 'running';
  page.worker.postMessage({
    type: 'check', id, stop: page.running.stop,
    request: { name: page.name, source, files: page.files, pictures: $('pictures').checked },
  });
}

function stop() {
  const running = page.running;
  if (!running || running.stopping) return;
  running.stopping = true;
  updateButtons();
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
  const running = page.running;
  const took = running ? performance.now() - running.start : 0;
  if (running) clearInterval(running.ticker);
  page.running = null;
  page.lastID = running ? running.id : 0;
  page.ranSource = running ? running.source : null;
  updateButtons();
  document.body.dataset.state = 'done';
  document.body.dataset.status = r.status;
  $('verdict').className = r.status;
  $('verdict').textContent = STATUS_WORD[r.status] || r.status;
  page.allMarks = r.marks || [];
  // Marks go in the editor only while it holds the text that was checked.
  const same = page.ranSource === $('source').value;
  page.marks = same ? page.allMarks.filter((mk) => mk.file === page.name) : [];
  for (const id of ['report', 'chain', 'profile']) $(id).classList.toggle('stale', !same);
  renderNow();
  renderMarkList();
  renderReport(r.text || '');
  $('report').dataset.json = r.json || '';
  page.lastChain = r.chain || '';
  page.chainCaption = r.summarized ? 'The chain is too large to draw whole: this is a summary (the pair, the worst event and counts of the rest).' : '';
  const notDrawn = !$('pictures').checked ? 'Tick "pictures" and run again to draw it.'
    : r.status === 'invalid' ? 'No picture: the file has errors.'
      : r.status === 'aborted' ? 'No picture: the check was stopped.' : 'No picture.';
  if (r.chain) showPicture('chain', '', '', 'Drawing the chain…');
  else showPicture('chain', '', '', r.chain_note || notDrawn);
  showPicture('profile', r.profile, '', r.profile_note || (r.profile ? '' : notDrawn));
  setStatus((STATUS_WORD[r.status] || r.status) + ' in ' + (took / 1000).toFixed(2) + ' s');
  window.dpcheckLast = r; // for tests and the curious
  window.dpcheckFinishedAt = performance.now();
}

// renderMarkList lists the last run's errors above the report: those in
// the editor's file take the cursor there; those in other files (a PRISM
// model) name their file.
function renderMarkList() {
  const all = page.allMarks || [];
  const marks = all.slice(0, MAX_LISTED_MARKS);
  const same = page.ranSource === $('source').value;
  const items = marks.map((mk) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    const here = mk.file === page.name;
    b.textContent = (here ? 'line ' : mk.file + ':') + mk.line + ':' + mk.column + ': ' + mk.msg;
    if (here && same) b.onclick = () => goTo(mk.line, mk.column);
    else b.disabled = true;
    li.append(b);
    return li;
  });
  if (all.length > marks.length) {
    const li = document.createElement('li');
    li.className = 'note';
    li.textContent = '… and ' + (all.length - marks.length) + ' more errors, in the report below.';
    items.push(li);
  }
  $('marks').replaceChildren(...items);
}

// line makes one line of the report, its indentation kept when it wraps.
function line(text) {
  const div = document.createElement('div');
  const indent = text.length - text.trimStart().length;
  div.style.paddingLeft = indent + 'ch';
  const body = text.trimStart();
  const verdict = /^(PASS|FAIL|STOP)\b/.exec(body);
  if (verdict) {
    const span = document.createElement('span');
    span.className = verdict[1] === 'PASS' ? 'pass' : 'fail';
    span.textContent = verdict[1];
    div.append(span, body.slice(verdict[1].length));
  } else {
    div.textContent = body || '\u00a0';
    if (/^\S+:\d+:\d+: /.test(body) || /^(error|stopped|dpcheck stopped)/.test(body)) div.className = 'err';
  }
  return div;
}

function renderReport(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  const frag = document.createDocumentFragment();
  for (const l of lines.slice(0, MAX_REPORT_LINES)) frag.append(line(l));
  if (lines.length > MAX_REPORT_LINES) {
    const more = line('… ' + (lines.length - MAX_REPORT_LINES) + ' more lines: the command line prints them all (dpcheck FILE).');
    more.className = 'note';
    frag.append(more);
  }
  $('text').replaceChildren(frag);
}

function showPicture(tab, svg, dot, caption) {
  const el = $(tab);
  el.replaceChildren();
  if (caption) { const p = document.createElement('p'); p.className = 'note'; p.textContent = caption; el.append(p); }
  if (svg) {
    const img = document.createElement('img');
    img.alt = tab === 'chain' ? 'The chain, its first counterexample highlighted' : 'The privacy profile δ(ε)';
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    page.urls.push(url);
    while (page.urls.length > 4) URL.revokeObjectURL(page.urls.shift());
    img.src = url;
    img.title = 'Click to see it at full size';
    img.onclick = () => img.classList.toggle('full');
    el.append(img);
  } else if (dot) {
    const pre = document.createElement('pre');
    pre.textContent = dot;
    el.append(pre);
  }
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
  let bin;
  try {
    bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new Error('it is not in the form a link has');
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts = [];
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.length;
      if (n > MAX_SHARED) { reader.cancel(); throw new RangeError('the file it carries is larger than ' + MAX_SHARED + ' bytes'); }
      parts.push(value);
    }
    return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
  } catch (err) {
    throw err instanceof RangeError ? err : new Error('it is damaged or cut short');
  }
}

async function share() {
  const text = $('source').value;
  if (new TextEncoder().encode(text).length > MAX_SHARED) {
    setStatus('this file is larger than ' + MAX_SHARED + ' bytes: too large to share by a link');
    return;
  }
  const params = new URLSearchParams({ name: page.name, src: await deflate(text) });
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

// SHARED_NAME is what a shared file's name may be: a relative path of
// plain names, ending in .dp.
const SHARED_NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/){0,8}[A-Za-z0-9_-][A-Za-z0-9_.-]*\.dp$/;

// fromLink puts the file a link carries in the editor; it says so when
// the link is damaged. It returns whether the link carried a file.
async function fromLink() {
  if (location.hash.length < 2) return false;
  const params = new URLSearchParams(location.hash.slice(1));
  const src = params.get('src');
  if (src === null) return false;
  let name = params.get('name') || 'playground.dp';
  if (name.length > 200 || !SHARED_NAME.test(name)) name = 'playground.dp';
  try {
    setSource(name, await inflate(src), true);
    $('sharebox').hidden = true;
    setNotice('');
    return true;
  } catch (err) {
    setNotice('The shared link could not be opened: ' + err.message + '. Ask for the link again' +
      ($('source').value ? '; the file shown is not the shared one.' : '.'));
    return false;
  }
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
    if (!await fromLink()) setSource(page.name, page.files[page.name] || '');
    startWorker();
  } catch (err) {
    setStatus('dpcheck could not start in this browser: ' + err.message);
  }
}

$('source').addEventListener('input', () => edited(false));
$('source').addEventListener('scroll', syncScroll);
$('source').addEventListener('keydown', (e) => {
  // Tab indents; Escape, then Tab, leaves the editor.
  if (e.key === 'Escape') { page.escaped = true; return; }
  if (e.key === 'Tab' && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey && !page.escaped) {
    e.preventDefault();
    document.execCommand('insertText', false, '  ');
  }
  page.escaped = false;
});
document.addEventListener('keydown', (e) => { if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); run(); } });
$('examples').addEventListener('change', (e) => { if (e.target.value) setSource(e.target.value, page.files[e.target.value]); });
window.addEventListener('hashchange', () => { fromLink(); });
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
