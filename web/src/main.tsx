// web/src/main.tsx — entry point: mount the app.
import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app')!);
