import '@fontsource-variable/inter/wght.css';
import '@site/shared/styles.css';
import './shell.css';
import './pages.css';
import './bootstrap';
