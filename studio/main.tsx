/** Livery Studio: mounts the app into index.html's #app. */
import { render } from 'preact';
import { App } from './components/App';
import './studio.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
