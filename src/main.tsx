import { render } from 'preact';
import { App } from './ui/App.tsx';
import { startModels } from './ui/models/boot.ts';
import { startServiceWorker } from './ui/sw-bridge.ts';
import './ui/styles.css';
import './ui/app-shell.css';
import './ui/badges-menus.css';

startModels();
render(<App />, document.getElementById('app')!);
startServiceWorker();
