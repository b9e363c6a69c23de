// Runs as the first process of a private network namespace (see mokapi.ts). It starts the command
// it is given (mokapi), waits until that command listens on 127.0.0.1:<port> inside the namespace,
// then relays every connection made to the Unix socket <socket> to that port. A Unix socket lives
// in the file system, so it is the one door between the namespace and the test process.
import net from 'node:net';
import { spawn } from 'node:child_process';

const [socketPath, portText, command, ...args] = process.argv.slice(2);
const port = Number(portText);
const READY_MARKER = '@@netns-relay-ready@@';
const startTimeoutMs = 20_000;

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
child.on('exit', (code, signal) => {
  console.error(`[netns-relay] ${command} exited (${code ?? signal})`);
  process.exit(1);
});

function stop() {
  child.removeAllListeners('exit');
  child.on('exit', () => process.exit(0));
  child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent holds our stdin open; when the parent dies, stdin ends and nothing is left behind.
process.stdin.on('end', stop);
process.stdin.resume();

function canConnect() {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const deadline = Date.now() + startTimeoutMs;
while (!(await canConnect())) {
  if (Date.now() > deadline) {
    console.error(`[netns-relay] nothing listens on 127.0.0.1:${port} after ${startTimeoutMs} ms`);
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 25));
}

const server = net.createServer((client) => {
  const upstream = net.connect(port, '127.0.0.1');
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});
server.listen(socketPath, () => console.log(READY_MARKER));
