/** `decisions calibrate --write`: the fitted temperatures and thresholds into the policy file. */
import { writeFile } from "node:fs/promises";
import { parsePolicy } from "../../../core/policy/parsePolicy.js";
import type { QuestionCalibrationReport } from "../../../evaluation/calibration/calibratePolicy.js";
import {
  type QuestionCalibration,
  writePolicyCalibration,
} from "../../../evaluation/calibration/writePolicyCalibration.js";
import type { CliOutput } from "../../types.js";

/** The policy file as `decisions calibrate` read it. */
export interface PolicyFile {
  /** Where it is. */
  readonly path: string;
  /** Its text, which the edit keeps (comments included) but for the values written. */
  readonly text: string;
}

/**
 * Writes each calibrated question's temperature, and its threshold when one met the budget (saying
 * on stderr which thresholds are left as they are), into the policy file under a new version,
 * after checking that the edited text loads with the values written.
 *
 * @returns the file written and its new version
 * @throws Error, the file unchanged, when the edited policy does not read back the new values
 */
export async function writeCalibratedPolicy(
  file: PolicyFile,
  calibrated: readonly QuestionCalibrationReport[],
  stderr: CliOutput["stderr"],
): Promise<{ file: string; version: string }> {
  const updates: Record<string, QuestionCalibration> = {};
  for (const question of calibrated) {
    const threshold = question.threshold?.met === true ? question.threshold.threshold : null;
    updates[question.id] = {
      temperature: question.fitted?.temperature,
      ...(threshold === null || threshold === undefined ? {} : { threshold }),
    };
    if (threshold === null || threshold === undefined) {
      stderr.write(
        `calibrate: ${question.id}: no threshold meets the budget; its threshold is left as it is\n`,
      );
    }
  }
  const edit = writePolicyCalibration(file.text, updates);
  // The edited file must still load, with the values written.
  const check = parsePolicy(edit.text, file.path);
  for (const [id, update] of Object.entries(updates)) {
    const question = check.question(id);
    const thresholdOk = update.threshold === undefined || question?.threshold === update.threshold;
    if (question?.temperature !== update.temperature || !thresholdOk) {
      throw new Error(`the edited policy does not read back ${id}'s new values; ${file.path} is unchanged`);
    }
  }
  await writeFile(file.path, edit.text);
  return { file: file.path, version: edit.version };
}
