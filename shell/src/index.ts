import '@fontsource-variable/inter/wght.css';
import '@site/shared/styles.css';
import './shell.css';

// The async boundary: the federation runtime negotiates the shared singletons (React, the router,
// the shared package) before any of them runs.
void import('./bootstrap');
