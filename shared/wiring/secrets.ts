// shared/wiring/secrets.ts — the runtime secrets (the token signing keys, the HBase gateway's
// Authorization), read once per container. No HBase and no AWS client here: authentication
// builds on this alone.
import { config } from '../config/config.js';
import { RuntimeSecrets } from '../config/secrets.js';

let secrets: RuntimeSecrets | undefined;
export function runtimeSecrets(): RuntimeSecrets {
  secrets ??= new RuntimeSecrets(config());
  return secrets;
}
