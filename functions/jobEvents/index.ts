export { jobEventsOf } from "./jobEventsOf.js";
