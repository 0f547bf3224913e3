// The fixed pages the RPC server serves beside its routes: GET /dashboard (src/rpc/server/dashboard-page.ts).
import { DASHBOARD_HTML } from "../../src/rpc/server/dashboard-page.js";

export function dashboardPages(): ReadonlyMap<string, string> {
  return new Map([["/dashboard", DASHBOARD_HTML]]);
}
