import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { StrictMode } from 'react';
import { ManifestError } from '@site/shared';
import { StartupError } from './components/StartupError';
import { loadManifest } from './federation/manifest';
import { registerManifest } from './federation/remotes';
import { createRoutes } from './router';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from the page');
  const root = createRoot(container);
  try {
    const manifest = await loadManifest();
    registerManifest(manifest);
    const router = createBrowserRouter(createRoutes(manifest));
    // Render only once the first route's code is loaded, so the prerendered page is replaced by an
    // identical one in a single step: no loading state in between, no layout shift.
    if (!router.state.initialized) {
      await new Promise<void>((resolve) => {
        const unsubscribe = router.subscribe((state) => {
          if (state.initialized) {
            unsubscribe();
            resolve();
          }
        });
      });
    }
    root.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  } catch (error) {
    console.error('The site could not start:', error);
    root.render(<StartupError error={error} manifestProblem={error instanceof ManifestError} />);
  }
}

void start();
