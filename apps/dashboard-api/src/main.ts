// Entry point: `node dist/main.js` starts the dashboard API on its own (embedded default:
// SQLite under ./data). `pnpm start` at the root runs it beside the gateway instead.
import { startDashboard } from "./start-dashboard.js";

const dashboard = await startDashboard();
const stop = async () => {
  await dashboard.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
