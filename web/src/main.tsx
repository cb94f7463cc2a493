// web/src/main.tsx — entry point: restore the session of a reload, mount the app.
import { render } from 'preact';
import { restore } from './api/client';
import { App } from './app';
import './styles.css';
import { applyTheme } from './theme';

// The saved theme before the first paint, so a dark page never flashes light.
applyTheme();

// A tab that was logged in asks the refresh cookie for an access token first (session.ts).
render(<App restoring={restore()} />, document.getElementById('app')!);
