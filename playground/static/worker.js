// The playground's worker: dpcheck compiled to WebAssembly runs here, so
// that a long check never freezes the page. The page sends the compiled
// module once ({type: "init"}), then one check at a time ({type:
// "check"}); it stops a check by a flag in shared memory the check reads
// as it goes, or, when the check does not stop soon, by ending the worker
// and starting another.
'use strict';
importScripts('wasm_exec.js');

let viz = null; // Graphviz, loaded the first time a chain is drawn

async function drawDOT(dot) {
  if (viz === null) {
    importScripts('viz-global.js');
    viz = await self.Viz.instance();
  }
  return viz.renderString(dot, { format: 'svg' });
}

// A failure of the module itself (it exited, it ran out of memory) is
// the page's to report: it ends this worker and starts another.
self.addEventListener('unhandledrejection', (e) => postMessage({ type: 'fatal', error: String(e.reason && e.reason.message || e.reason) }));

onmessage = async (e) => {
  const m = e.data;
  if (m.type === 'init') {
    const go = new Go();
    const instance = await WebAssembly.instantiate(m.module, go.importObject);
    go.run(instance); // defines dpcheckCheck, then waits for calls
    postMessage({ type: 'ready', version: self.dpcheckVersion });
    return;
  }
  if (m.type !== 'check') return;
  const progress = (stage, done, total) => postMessage({ type: 'progress', id: m.id, stage, done, total });
  // The page stops a check by setting a flag in memory it shares with us.
  const stopped = m.stop ? () => Atomics.load(m.stop, 0) === 1 : undefined;
  const call = self.dpcheckCheck;
  if (typeof call !== 'function') {
    postMessage({ type: 'fatal', error: 'dpcheck is not running in this worker' });
    return;
  }
  call(JSON.stringify(m.request), progress, async (text) => {
    const response = JSON.parse(text);
    postMessage({ type: 'done', id: m.id, response }); // the verdict first, the chain's drawing after
    if (response.chain) {
      try {
        postMessage({ type: 'chain', id: m.id, svg: await drawDOT(response.chain) });
      } catch (err) {
        postMessage({ type: 'chain', id: m.id, error: 'The chain could not be drawn: ' + err + '.' });
      }
    }
  }, stopped);
};
