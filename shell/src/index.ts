import '@fontsource-variable/inter/wght.css';
import '@site/shared/styles.css';
import './shell.css';
import './bootstrap';
