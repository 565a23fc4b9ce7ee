import { render } from 'solid-js/web';
import { App } from './App';
import '@upbeam/example-shared/style.css';

render(() => <App />, document.getElementById('app')!);
