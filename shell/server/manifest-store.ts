/**
 * The live manifest's helpers live with the control plane (control-plane/); the page composer
 * still imports this one from here.
 */
export { scriptJson } from './control-plane';
