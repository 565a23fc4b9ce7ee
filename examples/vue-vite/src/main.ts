import { createApp } from 'vue';
import App from './App.vue';
import '@upbeam/example-shared/style.css';

createApp(App).mount('#app');
