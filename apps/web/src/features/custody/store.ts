import { isVaultRecord, type VaultRecord } from './vault.ts';

/**
 * Where vault records live: IndexedDB database `swx-custody`, store `vaults`, one record per
 * customer id (a device may hold several customers' wallets). Not local storage: the app clears
 * that on an expired session (spec §8), and a wallet must survive a logout.
 */
const DB = 'swx-custody';
const STORE = 'vaults';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result as T);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

const listeners = new Set<() => void>();

/** Called after any change of a record (the screens read again). */
export function onVaultChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every screen reads its vault again (after a change, or to retry a failed read). */
export function vaultsChanged(): void {
  for (const listener of listeners) listener();
}

/** This customer's record on this device, or null. */
export async function loadVault(customerId: number): Promise<VaultRecord | null> {
  const value = await run<unknown>('readonly', (s) => s.get(customerId));
  return isVaultRecord(value) && value.customerId === customerId ? value : null;
}

export async function saveVault(record: VaultRecord): Promise<void> {
  await run('readwrite', (s) => s.put(record, record.customerId));
  vaultsChanged();
}

/** Forgets this customer's wallet on this device (the words, written down, restore it). */
export async function forgetVault(customerId: number): Promise<void> {
  await run('readwrite', (s) => s.delete(customerId));
  vaultsChanged();
}
