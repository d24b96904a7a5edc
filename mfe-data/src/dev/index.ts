// The async boundary: shared modules are negotiated by the federation runtime before they run.
import('./bootstrap');
