/** Constants of the `decisions` command, shared by the registry's summaries and the commands. */

/** The generated model kind `decisions start` serves unless `--kind` names another. */
export const DEFAULT_START_KIND = "tiny-qwen3";
