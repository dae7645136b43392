import { twilioErrorInfo } from '../uris';

/**
 * Twilio's code for an answer of a status, where the error names none of its own: 20003
 * `Authenticate`, 20404 not found, 20004 a method not allowed, 20429 too many requests; any
 * other refusal of input 20001.
 */
const STATUS_CODES: Readonly<Partial<Record<number, number>>> = {
  401: 20003,
  403: 20003,
  404: 20404,
  405: 20004,
  429: 20429,
  500: 20500,
  503: 20503,
};

/**
 * An error as Twilio answers it, `{code, message, more_info, status}`: what twilio-node and
 * twilio-python read into their `RestException`.
 * @example twilioErrorBody(404, 'The requested resource /2010-04-01/Accounts/AC1/Calls/CA2.json was not found') // '{"code":20404,"message":"The requested resource …","more_info":"https://www.twilio.com/docs/errors/20404","status":404}'
 */
export function twilioErrorBody(status: number, message: string, code?: number): string {
  const c = code ?? STATUS_CODES[status] ?? 20001;
  return JSON.stringify({ code: c, message, more_info: twilioErrorInfo(c), status });
}
