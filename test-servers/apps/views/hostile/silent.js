// Hostile: loads and says nothing at all, not even `ui/initialize`.
import { report } from '../view-kit.js';

report('loaded', 'yes');
