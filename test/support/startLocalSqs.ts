/**
 * fauxqs (the SQS emulator) on 127.0.0.1 and a real SQS client on it: the set-up of the queue
 * integration tests, one per test file (queues of different names share it).
 */
import { SQSClient } from "@aws-sdk/client-sqs";
import { type Fauxqs, LOCAL_CREDENTIALS, startFauxqs } from "../../local/index.js";

/** fauxqs and a client on it; `stop` destroys the client and stops fauxqs. */
export interface LocalSqs {
  fauxqs: Fauxqs;
  sqs: SQSClient;
  stop(): Promise<void>;
}

/** Starts fauxqs and an SQS client that sends to its endpoint (not to the queue URLs' hosts). */
export async function startLocalSqs(): Promise<LocalSqs> {
  const fauxqs = await startFauxqs();
  const sqs = new SQSClient({
    endpoint: fauxqs.endpoint,
    region: "us-east-1",
    credentials: LOCAL_CREDENTIALS,
    useQueueUrlAsEndpoint: false,
  });
  return {
    fauxqs,
    sqs,
    stop: async () => {
      sqs.destroy();
      await fauxqs.stop();
    },
  };
}
