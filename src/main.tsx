import { render } from 'preact';
import { App } from './ui/App.tsx';
import { startServiceWorker } from './ui/sw-bridge.ts';
import './ui/styles.css';

render(<App />, document.getElementById('app')!);
startServiceWorker();
