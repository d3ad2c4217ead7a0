/** The top of the DAM's contents: where you are (breadcrumb, name, details) and what you can add. */
import { CloudUploadOutlined, EditOutlined, FolderAddOutlined } from "@ant-design/icons";
import { Breadcrumb, Button, Flex, Space, Typography } from "antd";
import { useRef } from "react";
import { Link } from "react-router";
import type { DamFolderDetails } from "../../../schemas/dam";
import { FolderDetailsLine } from "./dam-bars";
import { folderHref } from "./use-dam-location";

interface DamHeaderProps {
  /** The open folder (undefined: the top level, or while it loads). */
  place: DamFolderDetails | undefined;
  placeName: string;
  /** The search text while searching, else null. */
  search: string | null;
  onRename: () => void;
  onNewFolder: () => void;
  onFiles: (files: File[]) => void;
}

export function DamHeader({ place, placeName, search, onRename, onNewFolder, onFiles }: DamHeaderProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const inFolder = place && search === null;
  return (
    <>
      <Breadcrumb
        items={[
          { title: <Link to={folderHref(null)}>All assets</Link> },
          ...(search !== null
            ? [{ title: `Search “${search}”` }]
            : (place?.path ?? []).map((p, i, path) => ({
                title: i === path.length - 1 ? p.name : <Link to={folderHref(p.id)}>{p.name}</Link>,
              }))),
        ]}
      />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space align="baseline" wrap>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {placeName}
          </Typography.Title>
          {inFolder && (
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label="Rename this folder"
              onClick={onRename}
            />
          )}
        </Space>
        <Space wrap>
          <Button icon={<FolderAddOutlined />} onClick={onNewFolder} disabled={search !== null}>
            New folder
          </Button>
          <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => fileInput.current?.click()}>
            Upload
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            aria-label="Files to upload"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              onFiles(files);
            }}
          />
        </Space>
      </Flex>
      {inFolder && <FolderDetailsLine folder={place} />}
    </>
  );
}
