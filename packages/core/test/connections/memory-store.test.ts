import { MemoryStore } from '../../src/connections/index.js';
import { storeContract } from './store-contract.js';

storeContract('MemoryStore', async () => ({ store: new MemoryStore() }));
