import './policy-setup';
import '@fontsource-variable/inter/wght.css';
import '@site/ui/styles.css';
import './shell.css';
import './pages.css';
import './bootstrap';
