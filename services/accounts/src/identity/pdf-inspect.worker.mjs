// Opens one uploaded PDF with pdf.js off the main thread and answers its page count, so a large
// or hostile file never stalls the gateway's event loop. Plain JavaScript: a worker thread starts
// without the TypeScript loader. See document-inspection.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

async function inspect(bytes) {
  const task = getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pages = doc.numPages;
    // The first page must open too: a catalogue that points nowhere is not a document.
    if (pages > 0) await doc.getPage(1);
    return { pages };
  } catch (error) {
    const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : '';
    return { error: name === 'PasswordException' ? 'password' : 'invalid' };
  } finally {
    await task.destroy();
  }
}

parentPort.postMessage(await inspect(new Uint8Array(workerData)));
