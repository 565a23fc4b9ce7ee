import { mount } from 'svelte';
import App from './App.svelte';
import '@upbeam/example-shared/style.css';

mount(App, { target: document.getElementById('app')! });
