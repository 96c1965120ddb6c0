/** Browser entry: styles, then the React root. */
import 'primereact/resources/themes/lara-light-blue/theme.css';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './styles.css';
// chasing's styles serve the delivery area, the auditor area and the Client's Open chases page: in the
// app's stylesheet once, not copied into each area's
import './components/chasing/chasing.css';
import './pages/chases/chases.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { connectApiToState } from './state/api-hooks';

connectApiToState();

const container = document.getElementById('root');
if (!container) throw new Error('Fund Audit: #root element missing from index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
