/**
 * The live manifest's types and helpers now live with the control plane (control-plane/); these
 * names stay importable from here for the modules that read them.
 */
export { StaleManifestError, live, scriptJson, type LiveManifest } from './control-plane';
