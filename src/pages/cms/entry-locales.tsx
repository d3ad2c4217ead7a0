/**
 * Locales in the CMS screens (issue 29): beside an entry's title, which locale this is and the
 * entry's others (missing, draft, published, behind the default), opened or started from
 * another locale's values; above a type's list, which locale to list, or the entries missing
 * in one. Locales are the domains' (schemas/cms-locales.ts); a locale's version of an entry is
 * an entry of its own (server/modules/cms/entry-locales.ts).
 */
import { TranslationOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Modal, Select, Space, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { domainLocalesOf } from "../../../schemas/cms-locales";
import { getErrorMessage } from "../../lib/errors";
import { listDomains, listEntryLocales, startEntryLocale } from "./cms-api";

const localeKey = (type: string, id: string) => ["cms", "locales", type, id] as const;

/** Every locale the domains have besides their defaults, and the defaults, for the lists. */
export function useDomainLocales() {
  const domains = useQuery({
    queryKey: ["cms", "domains", "locales"],
    queryFn: listDomains,
    staleTime: 60_000,
  });
  return useMemo(() => {
    const settings = (domains.data ?? []).map(domainLocalesOf);
    return {
      defaults: [...new Set(settings.map((d) => d.default_locale))],
      others: [...new Set(settings.flatMap((d) => d.locales.map((l) => l.code)))].sort(),
    };
  }, [domains.data]);
}

/** The list's locale choice: `""` the default locale's entries, `in:hi-IN`, `missing:hi-IN`. */
export function listQueryOfLocale(choice: string): Record<string, string> | undefined {
  const [mode, code] = choice.split(":");
  if (!code) return undefined;
  return mode === "missing" ? { missing: code } : { locale: code };
}

export function ListLocaleSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { defaults, others } = useDomainLocales();
  if (!others.length) return null;
  return (
    <Select
      aria-label="Locale"
      value={value}
      onChange={onChange}
      style={{ minWidth: 200 }}
      suffixIcon={<TranslationOutlined aria-hidden />}
      options={[
        { value: "", label: `Default locale (${defaults.join(", ")})` },
        { label: "In a locale", options: others.map((c) => ({ value: `in:${c}`, label: c })) },
        {
          label: "Not yet in",
          options: others.map((c) => ({ value: `missing:${c}`, label: `Missing in ${c}` })),
        },
      ]}
    />
  );
}

const STATUS = {
  published: { color: "green", label: "Published" },
  draft: { color: "default", label: "Draft" },
  unpublished: { color: "orange", label: "Unpublished" },
} as const;

/**
 * Beside an entry's title: this entry's locale and its others. Choosing one opens its version;
 * a locale not started yet asks which locale's values to start from.
 */
export function EntryLocaleSwitch({
  type,
  id,
  locale,
  sourceId,
}: {
  type: string;
  /** The entry shown (the default locale's, or a locale's version). */
  id: string;
  locale: string | null;
  sourceId: string | null;
}) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const entryId = sourceId ?? id;
  const locales = useQuery({
    queryKey: localeKey(type, entryId),
    queryFn: () => listEntryLocales(type, entryId),
  });
  const [starting, setStarting] = useState<string | null>(null);
  const [from, setFrom] = useState("");
  const [busy, setBusy] = useState(false);
  const data = locales.data;
  if (!data || data.locales.length === 0) return null;
  const defaultLabel = `${data.defaultLocales.join(", ") || "Default"} (default)`;
  const open = (target: string) => navigate(`/cms/entries/${type}/edit/${target}`);
  const choose = (value: string) => {
    if (value === "") return open(entryId);
    const chosen = data.locales.find((l) => l.code === value);
    if (chosen?.variantId) return open(chosen.variantId);
    setFrom("");
    setStarting(value);
  };
  const start = async () => {
    if (!starting) return;
    setBusy(true);
    try {
      const created = await startEntryLocale(type, entryId, starting, from || undefined);
      await queryClient.invalidateQueries({ queryKey: localeKey(type, entryId) });
      await invalidate({ resource: `entries/${type}`, invalidates: ["list"] });
      message.success(`${starting} started`);
      setStarting(null);
      open(created.id);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const startFrom = [
    { value: "", label: defaultLabel },
    ...data.locales
      .filter((l) => l.variantId && l.code !== starting)
      .map((l) => ({ value: l.code, label: l.code })),
  ];
  return (
    <>
      <Select
        aria-label="Locale"
        data-testid="entry-locale"
        value={locale ?? ""}
        onChange={choose}
        popupMatchSelectWidth={false}
        style={{ minWidth: 150 }}
        suffixIcon={<TranslationOutlined aria-hidden />}
        optionLabelProp="short"
        options={[
          { value: "", short: defaultLabel, label: <Space>{defaultLabel}</Space> },
          ...data.locales.map((l) => ({
            value: l.code,
            short: l.code,
            label: (
              <Space size={6}>
                <span>{l.code}</span>
                {l.status ? (
                  <Tag color={STATUS[l.status].color} bordered={false}>
                    {STATUS[l.status].label}
                  </Tag>
                ) : (
                  <Tag bordered={false}>Missing</Tag>
                )}
                {l.behind && (
                  <Tag color="gold" bordered={false}>
                    Behind the default
                  </Tag>
                )}
              </Space>
            ),
          })),
        ]}
      />
      <Modal
        open={starting !== null}
        title={`Start ${starting ?? ""}`}
        okText={`Start ${starting ?? ""}`}
        confirmLoading={busy}
        onOk={start}
        onCancel={() => setStarting(null)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          This entry has no {starting} version yet. Its localised fields start as a copy of another locale's,
          which you then translate; shared fields stay the entry's in every locale.
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label="Start from" htmlFor="locale-start-from">
            <Select id="locale-start-from" value={from} onChange={setFrom} options={startFrom} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Under the title of a locale's version: what it holds, and a way to its entry. */
export function VariantNotice({
  type,
  sourceId,
  locale,
}: {
  type: string;
  sourceId: string;
  locale: string;
}) {
  const navigate = useNavigate();
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 16 }}>
      The {locale} version: its localised fields. Shared fields and domains are the entry's, the same in every
      locale.{" "}
      <Button
        type="link"
        size="small"
        style={{ padding: 0 }}
        onClick={() => navigate(`/cms/entries/${type}/edit/${sourceId}`)}
      >
        Edit them in the default locale
      </Button>
    </Typography.Paragraph>
  );
}
