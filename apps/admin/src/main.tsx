// The design tokens shared with the customer app, then the back office's own styles.
import '../../web/src/styles/tokens.css';
import './admin.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BackOffice } from './BackOffice.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <BackOffice />
  </StrictMode>,
);
