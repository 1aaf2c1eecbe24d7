import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/routes';
import { PublicConfigProvider, readPublicConfig } from './lib/public-config';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('No #root element');

const app = (
  <StrictMode>
    <PublicConfigProvider value={readPublicConfig(document)}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </PublicConfigProvider>
  </StrictMode>
);

// Prerendered pages hydrate (their lazy chunk is preloaded by the page's <head>);
// the bare shell used for client-only routes renders from scratch.
if (container.hasChildNodes()) hydrateRoot(container, app);
else createRoot(container).render(app);
