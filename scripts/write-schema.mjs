// Regenerates schema/relctl.config.schema.json from the settings table (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/core/config/settings.js';

writeFileSync(new URL('../schema/relctl.config.schema.json', import.meta.url), JSON.stringify(configJsonSchema(), null, 2) + '\n');
