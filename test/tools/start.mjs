// `npm start`: install what is missing, build the app, serve the production build (so the service
// worker is real) on http://localhost:4173. The sample session is on the empty library screen.
import { spawn, spawnSync } from 'node:child_process';
import { ensureDependencies, root } from './setup.mjs';

ensureDependencies();
const port = process.env.PORT ?? '4173';
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`\nRho Sessions is running at http://localhost:${port}  (Ctrl+C to stop)\n`);
const server = spawn('node_modules/.bin/vite', ['preview', '--port', port, '--strictPort'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
