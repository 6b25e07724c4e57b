import assert from 'node:assert/strict';
import {
  validatePathParameters,
  validateRequestBody,
  RequestValidators,
} from '../../../../infrastructure/http/openapi/request-validator.js';
import { OPENAPI_DOCUMENT } from '../../../../infrastructure/features/features.js';

const validators = new RequestValidators(OPENAPI_DOCUMENT);

const url = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

function refusal(body: unknown, operationId = 'submitDownload'): string {
  const result = validateRequestBody(validators, operationId, body);
  assert.equal(result.ok, false, `expected ${JSON.stringify(body)} to be refused`);
  return result.ok ? '' : result.message;
}

describe('request validation by the OpenAPI document', () => {
  describe('defaults', () => {
    it('fills in format audio, on a copy that leaves the body as it was', () => {
      const body = { url };
      assert.deepEqual(validateRequestBody(validators, 'submitDownload', body), {
        ok: true,
        value: { url, format: 'audio' },
      });
      assert.deepEqual(body, { url });
    });

    it('fills in includeAudioTracks false and maxVideos 5', () => {
      assert.deepEqual(validateRequestBody(validators, 'submitInfo', { url }), {
        ok: true,
        value: { url, includeAudioTracks: false },
      });
      assert.deepEqual(validateRequestBody(validators, 'listChannel', { channelUrl: 'https://www.youtube.com/@x' }), {
        ok: true,
        value: { channelUrl: 'https://www.youtube.com/@x', maxVideos: 5 },
      });
    });

    it('keeps what the client gave', () => {
      const body = {
        url,
        format: '720',
        startTime: 0,
        endTime: 30,
        language: 'en-US',
        webhookUrl: 'https://hooks.example.com/done',
      };
      assert.deepEqual(validateRequestBody(validators, 'submitDownload', body), { ok: true, value: body });
      assert.deepEqual(validateRequestBody(validators, 'submitInfo', { url, includeAudioTracks: true }), {
        ok: true,
        value: { url, includeAudioTracks: true },
      });
      assert.deepEqual(validateRequestBody(validators, 'listChannel', { channelUrl: 'c', maxVideos: 1000 }), {
        ok: true,
        value: { channelUrl: 'c', maxVideos: 1000 },
      });
      assert.deepEqual(validateRequestBody(validators, 'submitClientDownload', { url }), { ok: true, value: { url } });
    });
  });

  describe('messages naming the field and its rule', () => {
    it('refuses a body that is not a JSON object', () => {
      for (const body of [undefined, null, 'text', 3, true, [1]])
        assert.equal(refusal(body), 'request body must be a JSON object', JSON.stringify(body));
    });

    it('url', () => {
      assert.equal(refusal({}), 'url is required');
      assert.equal(refusal({ format: '720' }), 'url is required');
      assert.equal(refusal({ url: 5 }), 'url must be a string');
      assert.equal(refusal({ url: null }), 'url must be a string');
    });

    it('format', () => {
      const message = 'format must be one of: 1080, 720, 480, 360, audio, audio-aac, audio-mp3';
      for (const format of ['4k', 'AUDIO', '', 1080, null])
        assert.equal(refusal({ url, format }), message, String(format));
      for (const format of ['1080', '720', '480', '360', 'audio', 'audio-aac', 'audio-mp3'])
        assert.equal(validateRequestBody(validators, 'submitDownload', { url, format }).ok, true, format);
    });

    it('startTime and endTime', () => {
      for (const startTime of [-1, 1.5, '3', null, true, Infinity, 2 ** 31])
        assert.equal(
          refusal({ url, startTime }),
          'startTime must be an integer from 0 to 2147483647',
          String(startTime),
        );
      for (const endTime of [0, -5, 2.5, '10', Infinity])
        assert.equal(refusal({ url, endTime }), 'endTime must be an integer from 1 to 2147483647', String(endTime));
      assert.equal(validateRequestBody(validators, 'submitDownload', { url, startTime: 0, endTime: 1 }).ok, true);
    });

    it('language', () => {
      const message =
        'language must match the pattern ^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$ (for example en, en-US, pt-BR)';
      for (const language of ['english!', 'e', 'en_US', 'en-', 'en-toolongsubtag', ''])
        assert.equal(refusal({ url, language }), message, language);
      assert.equal(refusal({ url, language: 7 }), 'language must be a string');
      assert.equal(
        refusal({ url, language: `en${'-abcdefgh'.repeat(3000)}` }),
        'language must be at most 35 characters',
      );
      assert.equal(
        validateRequestBody(validators, 'submitDownload', { url, language: `en${'-abcdefgh'.repeat(3)}-abcd` }).ok,
        true,
      );
      for (const language of ['en', 'EN', 'yue', 'en-US', 'zh-Hant-TW', 'es-419'])
        assert.equal(validateRequestBody(validators, 'submitDownload', { url, language }).ok, true, language);
    });

    it('webhookUrl', () => {
      assert.equal(
        refusal({ url, webhookUrl: `https://example.com/${'a'.repeat(2048)}` }),
        'webhookUrl must be at most 2048 characters',
      );
      assert.equal(refusal({ url, webhookUrl: 'not a uri' }), 'webhookUrl must be an absolute URL');
      assert.equal(refusal({ url, webhookUrl: '/relative/path' }), 'webhookUrl must be an absolute URL');
      assert.equal(
        refusal({ url, webhookUrl: 'https://hooks.example.com/done?<script>' }),
        'webhookUrl must be an absolute URL, and it contains the character "<", which a URL may not hold: percent-encode it (%3C)',
      );
      assert.match(refusal({ url, webhookUrl: 'https://hooks.example.com/a b' }), /contains a space, .*\(%20\)/);
      assert.match(refusal({ url, webhookUrl: 'https://hooks.example.com/"x"' }), /contains the character """/);
      assert.equal(refusal({ url, webhookUrl: 42 }), 'webhookUrl must be a string (an absolute URL)');
      const longest = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
      assert.equal(validateRequestBody(validators, 'submitDownload', { url, webhookUrl: longest }).ok, true);
    });

    it('unknown fields', () => {
      assert.equal(refusal({ url, foo: 1 }), 'unknown field: foo');
      assert.equal(refusal({ url, Format: '720' }), 'unknown field: Format');
      assert.equal(refusal({ url, extra: 1 }, 'submitClientDownload'), 'unknown field: extra');
    });

    it('the other operations', () => {
      assert.equal(
        refusal({ url, includeAudioTracks: 'yes' }, 'submitInfo'),
        'includeAudioTracks must be true or false',
      );
      assert.equal(refusal({}, 'submitInfo'), 'url is required');
      assert.equal(refusal({}, 'listChannel'), 'channelUrl is required');
      for (const maxVideos of [0, 1001, 2.5, '5'])
        assert.equal(
          refusal({ channelUrl: 'c', maxVideos }, 'listChannel'),
          'maxVideos must be an integer from 1 to 1000',
          String(maxVideos),
        );
      assert.equal(refusal({}, 'submitClientDownload'), 'url is required');
    });

    it('never leaks ajv internals', () => {
      for (const body of [{ url: {} }, { url, startTime: {} }, { url, language: [] }])
        assert.doesNotMatch(refusal(body), /#\/|schemaPath|instancePath|\bat\b.*:\d+/);
    });
  });

  describe('path parameters', () => {
    it('accepts a job id and returns the documented parameters only', () => {
      const jobId = '3b241101-e2bb-4255-8caf-4136c566a962';
      for (const operationId of ['getDownload', 'getInfo', 'getClientDownload']) {
        assert.deepEqual(validatePathParameters(validators, operationId, { jobId, other: 'x' }), {
          ok: true,
          value: { jobId },
        });
      }
    });

    it('refuses a missing or malformed job id, naming it', () => {
      assert.deepEqual(validatePathParameters(validators, 'getDownload', {}), {
        ok: false,
        message: 'jobId is required',
      });
      assert.deepEqual(validatePathParameters(validators, 'getDownload', { jobId: '' }), {
        ok: false,
        message: 'jobId is required',
      });
      for (const jobId of ['a/b', '../x', 'a b', 'x'.repeat(129)]) {
        assert.deepEqual(
          validatePathParameters(validators, 'getDownload', { jobId }),
          { ok: false, message: 'jobId must match the pattern ^[A-Za-z0-9_-]{1,128}$' },
          jobId,
        );
      }
    });

    it('accepts operations without path parameters', () => {
      assert.deepEqual(validatePathParameters(validators, 'getMe', {}), { ok: true, value: {} });
    });
  });

  it('throws for an operation the document lacks or one without a body: a programming error, not a client one', () => {
    assert.throws(() => validateRequestBody(validators, 'noSuchOperation', {}), /noSuchOperation/);
    assert.throws(() => validateRequestBody(validators, 'getMe', {}), /getMe/);
    assert.throws(() => validatePathParameters(validators, 'noSuchOperation', {}), /noSuchOperation/);
  });
});
