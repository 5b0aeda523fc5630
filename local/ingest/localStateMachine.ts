import type { StateMachine, StateMachineDefinition } from "aws-local-stepfunctions";
import { StackTemplateError } from "../errors.js";
import type { PseudoParameter, StateMachinePlan } from "../stack/LocalStackPlan.js";

/** The account of the local stack's ARNs (as `createLambdaContext` names its functions). */
const LOCAL_ACCOUNT = "000000000000";

/** Where the local stack imagines the state machine deployed: the values of its pseudo parameters. */
export interface LocalDeployment {
  region: string;
}

/** What a Task state of the definition calls, locally: the one function the local stack runs. */
export type LocalTaskCall =
  /** `arn:…:states:::lambda:invoke` (the optimized integration): input `{FunctionName, Payload}`, output `{Payload, StatusCode, …}`. */
  | "lambda:invoke"
  /** The function's own ARN as `Resource`: input and output are the function's. */
  | "function";

/** A state machine definition ready for the interpreter, and how each of its Task states is bound. */
export interface LocalStateMachine {
  /** The definition as Step Functions reads it (the template's pieces joined, intrinsics given values). */
  definition: StateMachineDefinition;
  /**
   * The interpreter over `definition`, made at the first call and kept: aws-local-stepfunctions
   * is loaded then, and the definition validated (together about a second of CPU, which a stack
   * that ingests nothing does not spend).
   * @throws {StackTemplateError} when the definition is not valid ASL, as a deploy would fail.
   */
  machine(): Promise<StateMachine>;
  /** Each Task state by name, and how it calls the function. */
  tasks: Record<string, LocalTaskCall>;
  /** The ARN the definition names the function by, locally. */
  functionArn: string;
}

/**
 * The definition of a state machine of the template (`StateMachinePlan`) as the local stack runs
 * it with aws-local-stepfunctions: its `DefinitionString` pieces joined, the pseudo parameters and
 * the function's ARN given local values (`arn:aws:lambda:<region>:000000000000:function:<logical id>`),
 * and each Task state bound to `functionId`, the one function the local stack runs for it.
 *
 * aws-local-stepfunctions runs JSONPath definitions only (no `QueryLanguage: "JSONata"`, no
 * `Assign` or `Arguments`), and each Task state here must invoke that function, through the
 * `lambda:invoke` integration or by its ARN.
 *
 * The same plan, function and region give the same object (kept while the plan is), so its
 * interpreter is validated once.
 *
 * @throws {StackTemplateError} naming the state machine and what the local stack cannot run: a
 *   definition that is not JSON, or in JSONata, a Task that calls anything else.
 */
export function localStateMachine(
  plan: StateMachinePlan,
  functionId: string,
  where: LocalDeployment,
): LocalStateMachine {
  const made = MADE.get(plan) ?? new Map<string, LocalStateMachine>();
  MADE.set(plan, made);
  const key = `${functionId} ${where.region}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  const local = makeLocalStateMachine(plan, functionId, where);
  made.set(key, local);
  return local;
}

/** Each plan's state machines made so far, by function and region. */
const MADE = new WeakMap<StateMachinePlan, Map<string, LocalStateMachine>>();

function makeLocalStateMachine(
  plan: StateMachinePlan,
  functionId: string,
  where: LocalDeployment,
): LocalStateMachine {
  const values: Record<PseudoParameter, string> = {
    "AWS::Partition": "aws",
    "AWS::Region": where.region,
    "AWS::AccountId": LOCAL_ACCOUNT,
    "AWS::URLSuffix": "amazonaws.com",
  };
  const arnOf = (id: string) => `arn:aws:lambda:${where.region}:${LOCAL_ACCOUNT}:function:${id}`;
  const text = plan.definition
    .map((piece) =>
      typeof piece === "string"
        ? piece
        : "pseudoParameter" in piece
          ? values[piece.pseudoParameter]
          : arnOf(piece.functionArn),
    )
    .join("");
  const functionArn = arnOf(functionId);
  const refuse = (what: string, cause?: unknown): never => {
    throw new StackTemplateError(
      `the state machine ${plan.logicalId} ${what}, which the local stack (aws-local-stepfunctions) does not run`,
      cause === undefined ? undefined : { cause },
    );
  };
  let definition: StateMachineDefinition;
  try {
    definition = JSON.parse(text) as StateMachineDefinition;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return refuse(`has a DefinitionString that is not JSON (${error.message})`, error);
  }
  const tasks: Record<string, LocalTaskCall> = {};
  const visit = (machine: { States?: Record<string, unknown>; QueryLanguage?: unknown }): void => {
    if (machine.QueryLanguage === "JSONata") refuse("is written in JSONata");
    for (const [name, value] of Object.entries(machine.States ?? {})) {
      const state = value as Record<string, unknown>;
      if (state.QueryLanguage === "JSONata") refuse(`has its state ${name} in JSONata`);
      for (const field of ["Assign", "Arguments", "Output", "Items"])
        if (field in state) refuse(`has ${field} (JSONata or variables) in its state ${name}`);
      if (state.Type === "Task") tasks[name] = taskCall(name, state, functionArn, refuse);
      for (const nested of [state.ItemProcessor, state.Iterator, ...((state.Branches as unknown[]) ?? [])])
        if (nested !== undefined) visit(nested as Parameters<typeof visit>[0]);
    }
  };
  visit(definition as Parameters<typeof visit>[0]);
  let machine: Promise<StateMachine> | undefined;
  return {
    definition,
    tasks,
    functionArn,
    machine() {
      machine ??= validatedMachine(plan.logicalId, definition);
      return machine;
    },
  };
}

async function validatedMachine(id: string, definition: StateMachineDefinition): Promise<StateMachine> {
  const { StateMachine } = await import("aws-local-stepfunctions");
  try {
    return new StateMachine(definition);
  } catch (error) {
    throw new StackTemplateError(
      `the state machine ${id}'s definition is not valid ASL: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

function taskCall(
  name: string,
  state: Record<string, unknown>,
  functionArn: string,
  refuse: (what: string) => never,
): LocalTaskCall {
  const resource = String(state.Resource);
  if (resource === functionArn) return "function";
  if (/^arn:[^:]+:states:::lambda:invoke$/.test(resource)) {
    const functionName = (state.Parameters as { FunctionName?: unknown } | undefined)?.FunctionName;
    if (functionName === functionArn) return "lambda:invoke";
    return refuse(
      `has its Task ${name} invoke ${JSON.stringify(functionName)} (not the function ${functionArn})`,
    );
  }
  return refuse(`has its Task ${name} call ${resource}`);
}
