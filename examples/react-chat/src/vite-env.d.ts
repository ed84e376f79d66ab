/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the MCP Apps sandbox proxy page is hosted in production (see README, "MCP Apps views"). */
  readonly VITE_MCP_SANDBOX_URL?: string;
}
