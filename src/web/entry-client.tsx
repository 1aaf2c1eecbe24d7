import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes, preloadPage } from './app/routes';
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

// Prerendered pages hydrate in one pass once their chunk is in (the page's
// <head> already preloads it); the bare shell for client-only routes renders
// from scratch.
if (container.hasChildNodes()) {
  const prerenderedPath = window.location.pathname;
  void preloadPage(prerenderedPath).then(() => {
    if (window.location.pathname === prerenderedPath) {
      hydrateRoot(container, app);
    } else {
      // The address changed while the chunk loaded: the HTML is for another page.
      container.replaceChildren();
      createRoot(container).render(app);
    }
  });
} else {
  createRoot(container).render(app);
}
