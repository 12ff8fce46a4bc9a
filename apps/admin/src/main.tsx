import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BackOffice } from './BackOffice.tsx';
import './admin.css';

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <BackOffice />
  </StrictMode>,
);
