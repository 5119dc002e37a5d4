// The keys the scripted LLM servers take, and how each refuses a missing or wrong one, word for
// word as the real API does. Every server requires its key always: a test that names none gets
// the default below (each server exports its own), so a client that sends no key, the wrong
// variable's key or another provider's key is refused in every test, not only where one opts in.

/** The key the OpenAI servers (scripted-llm's chat, scripted-responses) take unless told another. */
export const SCRIPTED_KEY = 'sk-proj-scripted-openai-key-5f3c1a';
/** The key scripted-anthropic takes unless told another (as x-api-key). */
export const SCRIPTED_ANTHROPIC_KEY = 'sk-ant-api03-scripted-anthropic-key-8d2e';
/** The key scripted-gemini takes unless told another (x-goog-api-key or ?key=). */
export const SCRIPTED_GEMINI_KEY = 'AIzaScripted-gemini-key-4b7a90';

/** An answer refusing a request: its HTTP status and its JSON body. */
export interface KeyRefusal {
  status: number;
  body: unknown;
}

/**
 * A key as OpenAI's 401 shows it: its first 8 characters, a star for each hidden one, its last 4
 * ("sk-VKMIs***…***wjh3", chatanywhere/GPT_API_free#62; "sk-proj-***…***MxYA",
 * continuedev/continue#9634; "https://***…***lETQ", continuedev/continue#10250); a key too short
 * to hide anything is shown whole ("Incorrect API key provided: API_KEY.", SevaSk/ecoute#163).
 */
export function maskOpenAiKey(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;
}

/**
 * OpenAI's answer to a request without the expected `Authorization: Bearer <key>` (both chat
 * completions and Responses), or undefined when the key is right. No key: 401 "You didn't provide
 * an API key. …", type invalid_request_error, code null (openai/openai-node#73, chatboxai/chatbox#98);
 * another key: 401 "Incorrect API key provided: <masked>. You can find your API key at …", code
 * invalid_api_key (chatanywhere/GPT_API_free#62, popjane/free_chatgpt_api#3). Either way with an
 * x-request-id header, as every API response carries one (platform.openai.com/docs/api-reference,
 * "Debugging requests"), which the caller adds.
 */
export function openAiKeyRefusal(authorization: string | undefined, expected: string): KeyRefusal | undefined {
  const key = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  const error = (message: string, code: string | null) => ({
    status: 401,
    body: { error: { message, type: 'invalid_request_error', param: null, code } },
  });
  if (!key)
    return error(
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      null,
    );
  if (key !== expected)
    return error(
      `Incorrect API key provided: ${maskOpenAiKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_api_key',
    );
  return undefined;
}

/**
 * Gemini's answer to a request without the expected key (x-goog-api-key or ?key=), or undefined.
 * No key: 403 PERMISSION_DENIED "Method doesn't allow unregistered callers …", no details
 * (PublicAffairs/openai-gemini#92, UnityGameStudio/Gemini-Unity-Package#1); another key: 400
 * INVALID_ARGUMENT "API key not valid. Please pass a valid API key." with an ErrorInfo (reason
 * API_KEY_INVALID) and a LocalizedMessage detail (cequence-io/openai-scala-client#109,
 * continuedev/continue#10290).
 */
export function geminiKeyRefusal(key: string | undefined, expected: string): KeyRefusal | undefined {
  if (!key)
    return {
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          status: 'PERMISSION_DENIED',
        },
      },
    };
  if (key === expected) return undefined;
  const message = 'API key not valid. Please pass a valid API key.';
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message,
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
          { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
        ],
      },
    },
  };
}

/**
 * Why Anthropic would refuse a request's credentials (the message of its 401 authentication_error;
 * the server wraps it in {type: 'error', error, request_id} with a request-id header), or
 * undefined. The API takes a key only as x-api-key: a bearer token is OAuth, which a key is not
 * ("OAuth authentication is currently not supported.", anthropics/claude-code#6131) unless
 * `acceptBearer` (an auth-token gateway); none: "x-api-key header is required"; another key:
 * "invalid x-api-key" (BerriAI/litellm#21039; with request_id in the body,
 * emilsvennesson/opencode-websearch#15).
 */
export function anthropicKeyRefusal(
  headers: Record<string, string>,
  expected: string,
  acceptBearer = false,
): string | undefined {
  const bearer = headers.authorization?.startsWith('Bearer ') ? headers.authorization.slice(7) : '';
  const key = headers['x-api-key'] || (acceptBearer ? bearer : '');
  if (!key && bearer) return 'OAuth authentication is currently not supported.';
  if (!key) return 'x-api-key header is required';
  if (key !== expected) return 'invalid x-api-key';
  return undefined;
}
